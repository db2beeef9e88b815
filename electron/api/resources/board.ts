/**
 * Boards and what belongs to one board: labels, statuses, saved views, checklist templates and
 * custom field definitions. The sub-resources live under their board,
 * `/v1/board/{board_id}/label|status|view|checklist|custom_field` (our choice where the public
 * record has no path; docs/API.md), and can also be written inline in a board POST/PUT.
 */
import {
  boardChecklistSpec,
  boardCustomFieldSpec,
  boardSpec,
  boardViewSpec,
  labelSpec,
  statusSpec,
} from '../../../shared/resources/board.js';
import type { ResourceSpec } from '../../../shared/fields.js';
import type { ResourceModule } from '../resource.js';
import { tableNamed, tables } from '../tables.js';

function boardPart(spec: ResourceSpec, segment: string): ResourceModule {
  return {
    spec,
    table: tableNamed(spec.name)!,
    path: `/board/:board_id/${segment}`,
    parents: [{ param: 'board_id', field: 'board_id', module: () => boardModule }],
    relations: { board: { kind: 'belongsTo', target: 'board', foreignKey: 'board_id' } },
  };
}

export const labelModule = boardPart(labelSpec, 'label');
export const statusModule = boardPart(statusSpec, 'status');
export const boardViewModule = boardPart(boardViewSpec, 'view');
export const boardChecklistModule = boardPart(boardChecklistSpec, 'checklist');
export const boardCustomFieldModule = boardPart(boardCustomFieldSpec, 'custom_field');

export const boardModule: ResourceModule = {
  spec: boardSpec,
  table: tables.board,
  path: '/board',
  relations: {
    stages: { kind: 'hasMany', target: 'stage', foreignKey: 'board_id', owned: true },
    labels: { kind: 'hasMany', target: 'label', foreignKey: 'board_id', owned: true },
    statuses: { kind: 'hasMany', target: 'status', foreignKey: 'board_id', owned: true },
    custom_fields: { kind: 'hasMany', target: 'board_custom_field', foreignKey: 'board_id', owned: true },
    views: { kind: 'hasMany', target: 'board_view', foreignKey: 'board_id', owned: true },
    checklists: { kind: 'hasMany', target: 'board_checklist', foreignKey: 'board_id', owned: true },
    collections: { kind: 'hasMany', target: 'collection', foreignKey: 'board_id' },
    // Every card planned on the board, across its collections (a card's board is its stage's).
    cards: { kind: 'hasMany', target: 'card', foreignKey: 'board_id' },
    space: { kind: 'belongsTo', target: 'space', foreignKey: 'space_id' },
  },
  rules: {
    present(ctx, boards) {
      // Every caller with API-key access administers the environment's boards.
      const permission = ctx.caller.kind === 'api-key' ? 'admin' : (ctx.caller.role ?? 'member');
      for (const board of boards) board.permission_set = permission;
    },
  },
};
