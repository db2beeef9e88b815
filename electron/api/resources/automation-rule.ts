/**
 * A board's automation rules and the notices their notify rules leave (docs/API.md
 * "Automation rules"). Rules are written through the generic routes (a command, they sync, on
 * either engine); what they do is planning/automation.ts, run by the card's write. Notices are
 * the rules' to write: they are read, and deleted, never created or changed by a client.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { automationNoticeSpec, automationRuleSpec } from '../../../shared/resources/automation-rule.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

/** The rule as it will be: the values written over the stored record. */
function field(values: Record<string, unknown>, current: StoredRecord | undefined, name: string): unknown {
  return values[name] !== undefined ? values[name] : current?.[name];
}

async function check(
  _ctx: RequestContext,
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: StoredRecord | undefined,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (current && values.board_id !== undefined && values.board_id !== current.board_id) {
    return [{ field: 'board_id', description: 'a rule stays on its board; delete it and make one on the other board' }];
  }
  const boardId = field(values, current, 'board_id');
  const action = field(values, current, 'action');
  for (const name of ['status_id', 'next_status_id']) {
    const id = field(values, current, name);
    if (typeof id !== 'string') continue;
    const status = await tx.get(tables.status, id);
    if (status && status.board_id !== boardId) problems.push({ field: name, description: `${name} must be a status of the rule's board` });
  }
  if (action === 'set_next_status' && typeof field(values, current, 'next_status_id') !== 'string') {
    problems.push({ field: 'next_status_id', description: 'a set_next_status rule names the status to set', rule: 'required' });
  }
  const notify = field(values, current, 'notify');
  if (action === 'notify' && typeof notify !== 'string') {
    problems.push({ field: 'notify', description: 'a notify rule says whom to tell: user or next_resource', rule: 'required' });
  }
  if (action === 'notify' && notify === 'user' && typeof field(values, current, 'user_id') !== 'string') {
    problems.push({ field: 'user_id', description: 'a notify rule for a user names the user', rule: 'required' });
  }
  return problems;
}

export const automationRuleModule: ResourceModule = {
  spec: automationRuleSpec,
  table: tables.automation_rule,
  path: '/automation_rule',
  relations: {
    board: { kind: 'belongsTo', target: 'board', foreignKey: 'board_id' },
    user: { kind: 'belongsTo', target: 'user', foreignKey: 'user_id' },
  },
  rules: { check },
};

export const automationNoticeModule: ResourceModule = {
  spec: automationNoticeSpec,
  table: tables.automation_notice,
  path: '/automation_notice',
  relations: {
    card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' },
    rule: { kind: 'belongsTo', target: 'automation_rule', foreignKey: 'rule_id' },
  },
  without: ['create', 'update'],
};
