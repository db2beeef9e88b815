/**
 * What a planner does to the plan, each as one undoable action: move or resize cards, label or
 * assign them, give a card to another person (a drop on the planboard by resource), delete
 * them, plan a collection, send it back to the backlog, ignore it.
 *
 * Every action shows at once (an optimistic change of the cached cards), lands as one server
 * command (docs/API.md "Commands and undo": moving 20 cards is one `move_cards` call, which
 * applies the board's dependency behaviour once), and when refused the cache goes back to what
 * it showed before, with the API's message; nothing was written. After it lands the board is
 * read again, because the server may have moved other cards and changed capacity and warnings.
 *
 * Undo and redo of a command are the server's: the history keeps its id. Deleting several
 * cards is several commands (there is no batch delete), so it keeps its own steps: delete,
 * and restore from the trash. A delete's toast offers Undo, which is Ctrl+Z; more than a few
 * cards are asked about first (delete-confirm-state.ts).
 *
 * Actions are named in the planner's language when they are done: the undo history keeps the
 * name, and a refusal is reported with the action's own `.failed` label.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Collection } from '../../../shared/resources/collection.js';
import { describeError } from '../../api/client.js';
import { runCommand, sendCommand, undoCommand } from '../../api/commands.js';
import { assignCardsOperation, labelCardsOperation, moveCardsOperation } from '../../../shared/operations/commands.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { Transport } from '../../api/transport.js';
import { useT, type MessageKey, type Params, type Translate } from '../../i18n/index.js';
import { useNotices, type NoticeAction } from '../../state/notices.js';
import { UndoDropped, undoManager, type CommandDone, type CommandUndoer, type CommandView, type UndoManager } from '../../state/undo.js';
import { deleteCard, moveToBacklog, planCollection, restoreCard, type PlanOptions } from './planboard-api.js';
import {
  cachedCollectionCards,
  changeCachedCards,
  refreshAfterWrite,
  removeFromBacklog,
  restoreSnapshot,
  type CacheSnapshot,
} from './planboard-cache.js';
import { cardTitle, toPlanCard, type PlanCard } from './plan-card.js';
import { confirmDeleteAbove, useDeleteConfirm } from './delete-confirm-state.js';

/** Where a card goes: its new dates and stage. */
export interface CardMove {
  card: PlanCard;
  start_date: string;
  end_date: string;
  stage_id: string;
}

type Links = 'labels' | 'resources';

/** An action's label: its key names it, and `<key>.failed` (with `{problem}`) reports a refusal. */
type ActionKey = { [K in MessageKey]: K extends `${infer Base}.failed` ? (Base extends MessageKey ? Base : never) : never }[MessageKey];

interface ActionName {
  key: ActionKey;
  params: Params;
}

/** A row of the planboard by resource: a person, or nobody (the cards no one is assigned to). */
export interface Assignee {
  id: string | null;
  name: string;
}

export interface PlanboardActions {
  moveCards(moves: readonly CardMove[]): Promise<void>;
  /**
   * A card dragged from one person's row onto another's (the planboard by resource): assigned
   * to `to` instead of `from`, its dates following the drop, as one command.
   */
  reassignCard(move: CardMove, from: Assignee, to: Assignee): Promise<void>;
  addLink(cards: readonly PlanCard[], links: Links, id: string, name: string): Promise<void>;
  /** More than a few cards are asked about first, unless `confirmed`; the toast of a delete offers Undo. */
  deleteCards(cards: readonly PlanCard[], confirmed?: boolean): Promise<void>;
  plan(collection: Pick<Collection, 'id' | 'name'>, options: PlanOptions): Promise<void>;
  unplan(collectionId: string, name: string): Promise<void>;
  ignore(collection: Pick<Collection, 'id' | 'name'>): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

interface Context {
  transport: Transport;
  queryClient: QueryClient;
  boardId: string;
  notify: (text: string, tone?: 'info' | 'error', action?: NoticeAction) => void;
  manager: UndoManager;
  t: Translate;
}

export function usePlanboardActions(boardId: string, manager: UndoManager = undoManager): PlanboardActions {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  const notify = useNotices((state) => state.notify);
  const t = useT();
  return useMemo(
    () => planboardActions({ transport, queryClient, boardId, notify, manager, t }),
    [transport, queryClient, boardId, notify, manager, t],
  );
}

function planboardActions(ctx: Context): PlanboardActions {
  const { transport, queryClient, boardId, notify, manager, t } = ctx;

  /** Runs an action through the undo history; a refusal becomes a message, never a silent nothing. */
  async function perform(name: ActionName, redo: () => Promise<void>, undo: () => Promise<void>): Promise<void> {
    try {
      await manager.perform(redo, undo, t(name.key, name.params));
    } catch (error) {
      notify(refused(name, error), 'error');
    }
  }

  function refused(name: ActionName, error: unknown): string {
    return t(`${name.key}.failed`, { ...name.params, problem: describeError(error) });
  }

  /** One card by its title, or several by their number. */
  function cardsNamed(cards: readonly PlanCard[]): string {
    return cards.length === 1 ? cardTitle(cards[0]!, t) : t.count('planboard.cardCount', cards.length);
  }

  /** Shows cards changed at once; answers what the cache held, for a refusal to put back. */
  function optimistic(cards: readonly PlanCard[]): CacheSnapshot {
    // A read landing after this change would show the old places again until the next one.
    void queryClient.cancelQueries({ queryKey: ['card', 'planboard', boardId] });
    return changeCachedCards(queryClient, boardId, { upsert: cards });
  }

  /**
   * Runs one server command as one undoable action. The cache already shows the result
   * (`snapshot` is what it showed before); a refusal puts that back. Nothing is written to
   * take it back: a refused command wrote nothing.
   */
  async function command(
    name: ActionName,
    snapshot: CacheSnapshot,
    shows: CommandView,
    run: (description: string) => Promise<string | null>,
  ): Promise<void> {
    await performCommand(name, async (description) => {
      try {
        return { commandId: await run(description), shows };
      } catch (error) {
        restoreSnapshot(queryClient, snapshot);
        throw error;
      } finally {
        void refreshAfterWrite(queryClient, boardId);
      }
    });
  }

  /**
   * How undo and redo show a command at once (state/undo.ts, CommandView): the cards as they
   * were before it, and as it left them. A read landing meanwhile would show the other state
   * until the next one, so reads of the board are called off first.
   */
  function cardsView(before: readonly PlanCard[], after: readonly PlanCard[]): CommandView {
    const show = (shown: readonly PlanCard[], gone: readonly PlanCard[]) => {
      void queryClient.cancelQueries({ queryKey: ['card', 'planboard', boardId] });
      const kept = new Set(shown.map((card) => card.id));
      changeCachedCards(queryClient, boardId, { upsert: shown, remove: gone.filter((card) => !kept.has(card.id)).map((card) => card.id) });
    };
    return { undone: () => show(before, after), done: () => show(after, before) };
  }

  async function performCommand(name: ActionName, run: (description: string) => Promise<CommandDone>): Promise<void> {
    const description = t(name.key, name.params);
    try {
      await manager.performCommand(() => run(description), description);
    } catch (error) {
      notify(refused(name, error), 'error');
    }
  }

  /** Undo and redo of a command: the server's undo of its last command id. */
  const undoer: CommandUndoer = async (commandId) => {
    try {
      return (await undoCommand(transport, commandId)).command_id;
    } finally {
      void refreshAfterWrite(queryClient, boardId);
    }
  };

  /** A refused undo or redo, in the planner's words; a dropped step is no error of theirs. */
  function undoProblem(action: 'undo' | 'redo', error: unknown): { text: string; tone: 'info' | 'error' } {
    if (error instanceof UndoDropped) {
      const key = error.alreadyUndone
        ? action === 'undo'
          ? 'planboard.undoUndoneAlready'
          : 'planboard.redoUndoneAlready'
        : action === 'undo'
          ? 'planboard.undoChanged'
          : 'planboard.redoChanged';
      return { text: t(key, { action: error.description }), tone: 'info' };
    }
    return {
      text: t(action === 'undo' ? 'planboard.undoFailed' : 'planboard.redoFailed', { problem: describeError(error) }),
      tone: 'error',
    };
  }

  return {
    async moveCards(moves) {
      const changed = moves.filter(
        (move) => move.start_date !== move.card.start_date || move.end_date !== move.card.end_date || move.stage_id !== move.card.stage_id,
      );
      if (changed.length === 0) return;
      const next = changed.map((move) => ({ ...move.card, start_date: move.start_date, end_date: move.end_date, stage_id: move.stage_id }));
      const cards = changed.map((move, at) => ({ id: move.card.id, ...changedFields(move.card, next[at]!) }));
      // Shown before the action waits its turn in the history, so a drop lands on screen at once.
      const snapshot = optimistic(next);
      const name: ActionName =
        changed.length === 1
          ? {
              key: isResize(changed[0]!) ? 'planboard.action.resize' : 'planboard.action.move',
              params: { card: cardTitle(changed[0]!.card, t) },
            }
          : { key: 'planboard.action.moveCards', params: { count: changed.length } };
      // One command for the whole set: the server applies the dependency behaviour once.
      await command(
        name,
        snapshot,
        cardsView(
          changed.map((move) => move.card),
          next,
        ),
        async (description) => (await runCommand(transport, moveCardsOperation, { cards }, description)).command_id,
      );
    },

    async reassignCard(move, from, to) {
      const { card } = move;
      const resources = [...card.resources.filter((r) => r.id !== from.id && r.id !== to.id), ...(to.id ? [{ id: to.id }] : [])];
      const next = { ...card, start_date: move.start_date, end_date: move.end_date, resources };
      // Shown before the action waits its turn in the history, as a move's drop is.
      const snapshot = optimistic([next]);
      const title = cardTitle(card, t);
      const name: ActionName = to.id
        ? { key: 'planboard.action.reassign', params: { card: title, resource: to.name } }
        : { key: 'planboard.action.unassign', params: { card: title, resource: from.name } };
      const dates = changedFields(card, next);
      await command(
        name,
        snapshot,
        cardsView([card], [next]),
        async (description) =>
          (
            await runCommand(
              transport,
              assignCardsOperation,
              {
                cards: [card.id],
                ...(to.id ? { add: [to.id] } : {}),
                ...(from.id ? { remove: [from.id] } : {}),
                ...(Object.keys(dates).length > 0 ? { move: [{ id: card.id, ...dates }] } : {}),
              },
              description,
            )
          ).command_id,
      );
    },

    async addLink(cards, links, id, name) {
      const targets = cards.filter((card) => !card[links].some((link) => link.id === id));
      if (targets.length === 0) return;
      const linked = targets.map((card) => ({ ...card, [links]: [...card[links], { id }] }));
      const snapshot = optimistic(linked);
      const what = cardsNamed(targets);
      const action: ActionName =
        links === 'labels'
          ? { key: 'planboard.action.addLabel', params: { label: name, cards: what } }
          : { key: 'planboard.action.assign', params: { resource: name, cards: what } };
      const operation = links === 'labels' ? labelCardsOperation : assignCardsOperation;
      await command(
        action,
        snapshot,
        cardsView(targets, linked),
        async (description) =>
          (await runCommand(transport, operation, { cards: targets.map((card) => card.id), add: [id] }, description)).command_id,
      );
    },

    async deleteCards(cards, confirmed = false) {
      if (cards.length === 0) return;
      if (!confirmed && cards.length > confirmDeleteAbove) {
        useDeleteConfirm.getState().ask(cards);
        return;
      }
      const ids = cards.map((card) => card.id);
      const name: ActionName =
        cards.length === 1
          ? { key: 'planboard.action.delete', params: { card: cardTitle(cards[0]!, t) } }
          : { key: 'planboard.action.deleteCards', params: { count: cards.length } };
      await perform(
        name,
        async () => {
          const snapshot = changeCachedCards(queryClient, boardId, { remove: ids });
          try {
            for (const card of cards) await deleteCard(transport, card);
          } catch (error) {
            restoreSnapshot(queryClient, snapshot);
            throw error;
          } finally {
            void refreshAfterWrite(queryClient, boardId);
          }
        },
        async () => {
          // Back on screen at once, as a drag shows; gone again if the trash refuses.
          const snapshot = changeCachedCards(queryClient, boardId, { upsert: cards });
          try {
            for (const card of cards) await restoreCard(transport, card.id);
          } catch (error) {
            restoreSnapshot(queryClient, snapshot);
            throw error;
          } finally {
            void refreshAfterWrite(queryClient, boardId);
          }
        },
      );
      // Done when it is the last thing in the history. Its toast's Undo is Ctrl+Z, as long as
      // nothing was done since: then Ctrl+Z would take back that later action instead.
      const description = t(name.key, name.params);
      if (manager.getState().undoDescription !== description) return;
      notify(t('delete.deleted', { cards: cardsNamed(cards) }), 'info', {
        label: t('delete.undo'),
        run: () => {
          if (manager.getState().undoDescription === description) void undoLast();
        },
      });
    },

    async plan(collection, options) {
      const name = collection.name || t('planboard.collection');
      // One command: undo takes its cards away and puts the collection back in the backlog.
      await performCommand({ key: 'planboard.action.plan', params: { collection: name } }, async () => {
        const backlog = removeFromBacklog(queryClient, boardId, collection.id);
        try {
          const { body: planned, commandId } = await planCollection(transport, collection.id, boardId, options);
          // The answer carries the cards: they show now, before the board is read again.
          const cards = planned.cards.map((card) => toPlanCard(card, planned));
          changeCachedCards(queryClient, boardId, { upsert: cards });
          return { commandId, shows: cardsView([], cards) };
        } catch (error) {
          restoreSnapshot(queryClient, backlog);
          throw error;
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      });
    },

    async unplan(collectionId, name) {
      // One command: undo brings back the very cards it removed, where they were.
      await performCommand({ key: 'planboard.action.unplan', params: { collection: name } }, async () => {
        const cards = cachedCollectionCards(queryClient, boardId, collectionId);
        const snapshot = changeCachedCards(queryClient, boardId, { remove: cards.map((c) => c.id) });
        try {
          return { commandId: (await moveToBacklog(transport, collectionId)).commandId, shows: cardsView(cards, []) };
        } catch (error) {
          restoreSnapshot(queryClient, snapshot);
          throw error;
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      });
    },

    async ignore(collection) {
      const name = collection.name || t('planboard.collection');
      // A status change is one write, so one command: undo sets the status it had back.
      await performCommand({ key: 'planboard.action.ignore', params: { collection: name } }, async () => {
        const snapshot = removeFromBacklog(queryClient, boardId, collection.id);
        try {
          const request = { method: 'PUT', path: apiPath`/v1/collection/${collection.id}`, body: { status: 'ignored' } } as const;
          return (await sendCommand(transport, request)).commandId;
        } catch (error) {
          restoreSnapshot(queryClient, snapshot);
          throw error;
        } finally {
          void queryClient.invalidateQueries({ queryKey: ['collection'] });
        }
      });
    },

    undo: undoLast,

    async redo() {
      try {
        const description = await manager.redo(undoer);
        notify(description ? t('planboard.redone', { action: description }) : t('planboard.redoNothing'));
      } catch (error) {
        const problem = undoProblem('redo', error);
        notify(problem.text, problem.tone);
      }
    },
  };

  async function undoLast(): Promise<void> {
    try {
      const description = await manager.undo(undoer);
      notify(description ? t('planboard.undone', { action: description }) : t('planboard.undoNothing'));
    } catch (error) {
      const problem = undoProblem('undo', error);
      notify(problem.text, problem.tone);
    }
  }
}

function changedFields(from: PlanCard, to: PlanCard): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (from.start_date !== to.start_date) fields.start_date = to.start_date;
  if (from.end_date !== to.end_date) fields.end_date = to.end_date;
  if (from.stage_id !== to.stage_id) fields.stage_id = to.stage_id;
  return fields;
}

/** A move that changes a card's length is a resize. */
function isResize(move: CardMove): boolean {
  const length = (start: string, end: string) => Date.parse(end) - Date.parse(start);
  return length(move.start_date, move.end_date) !== length(move.card.start_date, move.card.end_date);
}
