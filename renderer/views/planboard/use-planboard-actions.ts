/**
 * What a planner does to the plan, each as one undoable action: move or resize cards, label or
 * assign them, delete them, plan a collection, send it back to the backlog, ignore it.
 *
 * Every action shows at once (an optimistic change of the cached cards), lands with one API
 * call per card, and is rolled back on screen with the API's message when refused. After it
 * lands the board is read again, because the server may have moved other cards (the board's
 * dependency behaviour) and changed capacity and warnings.
 *
 * Actions are named in the planner's language when they are done: the undo history keeps the
 * name, and a refusal is reported with the action's own `.failed` label.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Card } from '../../../shared/resources/card.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import type { Transport } from '../../api/transport.js';
import { useT, type MessageKey, type Params, type Translate } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { undoManager, type UndoManager } from '../../state/undo.js';
import { localToday } from './date-geometry.js';
import {
  deleteCard,
  fetchCollectionCards,
  moveToBacklog,
  planCollection,
  restoreCard,
  setCollectionStatus,
  updateCard,
  type PlanOptions,
} from './planboard-api.js';
import {
  cachedCollectionCards,
  changeCachedCards,
  refreshAfterWrite,
  removeFromBacklog,
  restoreSnapshot,
  type CacheSnapshot,
} from './planboard-cache.js';
import { cardTitle, toPlanCard, type PlanCard } from './plan-card.js';

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

export interface PlanboardActions {
  moveCards(moves: readonly CardMove[]): Promise<void>;
  addLink(cards: readonly PlanCard[], links: Links, id: string, name: string): Promise<void>;
  deleteCards(cards: readonly PlanCard[]): Promise<void>;
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
  /** Stage ids in board order, for matching cards when a plan is re-made. */
  stageOrder: readonly string[];
  notify: (text: string, tone?: 'info' | 'error') => void;
  manager: UndoManager;
  t: Translate;
}

export function usePlanboardActions(boardId: string, stageOrder: readonly string[], manager: UndoManager = undoManager): PlanboardActions {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  const notify = useNotices((state) => state.notify);
  const t = useT();
  return useMemo(
    () => planboardActions({ transport, queryClient, boardId, stageOrder, notify, manager, t }),
    [transport, queryClient, boardId, stageOrder, notify, manager, t],
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

  /**
   * Writes cards one after the other, showing the result at once. If one is refused, the
   * ones already written are written back, so an action lands whole or not at all.
   */
  async function writeCards(writes: readonly { card: PlanCard; next: PlanCard; fields: Record<string, unknown> }[], snapshot?: CacheSnapshot) {
    const before = snapshot ?? optimistic(writes.map((write) => write.next));
    const done: (typeof writes)[number][] = [];
    try {
      for (const write of writes) {
        const saved = await updateCard(transport, write.card, write.fields);
        changeCachedCards(queryClient, boardId, { upsert: [toPlanCard(saved, null, write.next)] });
        done.push(write);
      }
    } catch (error) {
      restoreSnapshot(queryClient, before);
      for (const write of done.reverse()) {
        await updateCard(transport, write.card, fieldsOf(write.card, Object.keys(write.fields))).catch(() => undefined);
      }
      throw error;
    } finally {
      void refreshAfterWrite(queryClient, boardId);
    }
  }

  function optimistic(cards: readonly PlanCard[]): CacheSnapshot {
    // A read landing after this change would show the old places again until the next one.
    void queryClient.cancelQueries({ queryKey: ['card', 'planboard', boardId] });
    return changeCachedCards(queryClient, boardId, { upsert: cards });
  }

  /**
   * After cards are moved back, puts the other cards of their collections back where they
   * were too: with `push` or `maintain` the server moved them along with the first move.
   */
  async function putBackOthers(others: readonly PlanCard[]) {
    const byCollection = new Map<string, PlanCard[]>();
    for (const card of others) byCollection.set(card.collection_id, [...(byCollection.get(card.collection_id) ?? []), card]);
    for (const [collectionId, cards] of byCollection) {
      const now = new Map((await fetchCollectionCards(transport, collectionId)).map((card) => [card.id, card]));
      for (const card of cards) {
        const current = now.get(card.id);
        if (!current) continue;
        if (current.start_date !== card.start_date || current.end_date !== card.end_date || current.stage_id !== card.stage_id) {
          await updateCard(transport, card, { start_date: card.start_date, end_date: card.end_date, stage_id: card.stage_id });
        }
      }
    }
  }

  return {
    async moveCards(moves) {
      const changed = moves.filter(
        (move) => move.start_date !== move.card.start_date || move.end_date !== move.card.end_date || move.stage_id !== move.card.stage_id,
      );
      if (changed.length === 0) return;
      const forward = changed.map((move) => {
        const next = { ...move.card, start_date: move.start_date, end_date: move.end_date, stage_id: move.stage_id };
        return { card: move.card, next, fields: changedFields(move.card, next) };
      });
      const back = forward.map((write) => ({ card: write.next, next: write.card, fields: changedFields(write.next, write.card) }));
      const movedIds = new Set(changed.map((move) => move.card.id));
      const others = [...new Set(changed.map((move) => move.card.collection_id))]
        .flatMap((collectionId) => cachedCollectionCards(queryClient, boardId, collectionId))
        .filter((card) => !movedIds.has(card.id));
      // Shown before the action waits its turn in the history, so a drop lands on screen at once.
      let first: CacheSnapshot | undefined = optimistic(forward.map((write) => write.next));
      const name: ActionName =
        changed.length === 1
          ? { key: isResize(changed[0]!) ? 'planboard.action.resize' : 'planboard.action.move', params: { card: cardTitle(changed[0]!.card, t) } }
          : { key: 'planboard.action.moveCards', params: { count: changed.length } };
      await perform(
        name,
        async () => {
          const snapshot = first;
          first = undefined;
          await writeCards(forward, snapshot);
        },
        async () => {
          await writeCards(back);
          if (others.length > 0) {
            await putBackOthers(others);
            await refreshAfterWrite(queryClient, boardId);
          }
        },
      );
    },

    async addLink(cards, links, id, name) {
      const targets = cards.filter((card) => !card[links].some((link) => link.id === id));
      if (targets.length === 0) return;
      const forward = targets.map((card) => {
        const list = [...card[links], { id }];
        return { card, next: { ...card, [links]: list }, fields: { [links]: list } };
      });
      const back = forward.map((write) => ({ card: write.next, next: write.card, fields: { [links]: write.card[links] } }));
      const what = cardsNamed(targets);
      const action: ActionName =
        links === 'labels'
          ? { key: 'planboard.action.addLabel', params: { label: name, cards: what } }
          : { key: 'planboard.action.assign', params: { resource: name, cards: what } };
      await perform(action, () => writeCards(forward), () => writeCards(back));
    },

    async deleteCards(cards) {
      if (cards.length === 0) return;
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
          for (const card of cards) await restoreCard(transport, card.id);
          changeCachedCards(queryClient, boardId, { upsert: cards });
          void refreshAfterWrite(queryClient, boardId);
        },
      );
    },

    async plan(collection, options) {
      const name = collection.name || t('planboard.collection');
      const redo = async () => {
        const backlog = removeFromBacklog(queryClient, boardId, collection.id);
        try {
          const planned = await planCollection(transport, collection.id, boardId, options);
          // The answer carries the cards: they show now, before the board is read again.
          changeCachedCards(queryClient, boardId, { upsert: planned.cards.map((card) => toPlanCard(card, planned)) });
        } catch (error) {
          restoreSnapshot(queryClient, backlog);
          throw error;
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      };
      const undo = async () => {
        const cards = cachedCollectionCards(queryClient, boardId, collection.id);
        const snapshot = changeCachedCards(queryClient, boardId, { remove: cards.map((card) => card.id) });
        try {
          await moveToBacklog(transport, collection.id);
        } catch (error) {
          restoreSnapshot(queryClient, snapshot);
          throw error;
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      };
      await perform({ key: 'planboard.action.plan', params: { collection: name } }, redo, undo);
    },

    async unplan(collectionId, name) {
      const action: ActionName = { key: 'planboard.action.unplan', params: { collection: name } };
      // Where its cards are now, to put them back on undo (all of them, loaded or not).
      let before: Card[];
      try {
        before = await fetchCollectionCards(transport, collectionId);
      } catch (error) {
        notify(refused(action, error), 'error');
        return;
      }
      const start = before.map((card) => card.start_date ?? '').filter(Boolean).sort()[0];
      const redo = async () => {
        const snapshot = changeCachedCards(queryClient, boardId, { remove: cachedCollectionCards(queryClient, boardId, collectionId).map((c) => c.id) });
        try {
          await moveToBacklog(transport, collectionId);
        } catch (error) {
          restoreSnapshot(queryClient, snapshot);
          throw error;
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      };
      const undo = async () => {
        // Planned again from where it started; then each card goes back to where it was, as far
        // as the new plan has the same cards (same count in stage order).
        const planned = await planCollection(transport, collectionId, boardId, start ? { start } : { start: localToday() });
        changeCachedCards(queryClient, boardId, { upsert: planned.cards.map((card) => toPlanCard(card, planned)) });
        const order = (card: Card) => `${String(ctx.stageOrder.indexOf(card.stage_id)).padStart(4, '0')}|${card.start_date ?? ''}`;
        const fresh = [...planned.cards].sort((a, b) => order(a).localeCompare(order(b)));
        const old = [...before].sort((a, b) => order(a).localeCompare(order(b)));
        if (fresh.length === old.length) {
          for (const [i, card] of fresh.entries()) {
            const was = old[i]!;
            if (card.start_date !== was.start_date || card.end_date !== was.end_date || card.stage_id !== was.stage_id) {
              await updateCard(transport, { id: card.id, collection_id: collectionId }, { start_date: was.start_date, end_date: was.end_date, stage_id: was.stage_id });
            }
          }
        }
        await refreshAfterWrite(queryClient, boardId);
      };
      await perform(action, redo, undo);
    },

    async ignore(collection) {
      const name = collection.name || t('planboard.collection');
      await perform(
        { key: 'planboard.action.ignore', params: { collection: name } },
        async () => {
          const snapshot = removeFromBacklog(queryClient, boardId, collection.id);
          try {
            await setCollectionStatus(transport, collection.id, 'ignored');
          } catch (error) {
            restoreSnapshot(queryClient, snapshot);
            throw error;
          } finally {
            void queryClient.invalidateQueries({ queryKey: ['collection'] });
          }
        },
        async () => {
          await setCollectionStatus(transport, collection.id, 'not_planned');
          void queryClient.invalidateQueries({ queryKey: ['collection'] });
        },
      );
    },

    async undo() {
      try {
        const description = await manager.undo();
        notify(description ? t('planboard.undone', { action: description }) : t('planboard.undoNothing'));
      } catch (error) {
        notify(t('planboard.undoFailed', { problem: describeError(error) }), 'error');
      }
    },

    async redo() {
      try {
        const description = await manager.redo();
        notify(description ? t('planboard.redone', { action: description }) : t('planboard.redoNothing'));
      } catch (error) {
        notify(t('planboard.redoFailed', { problem: describeError(error) }), 'error');
      }
    },
  };
}

function changedFields(from: PlanCard, to: PlanCard): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (from.start_date !== to.start_date) fields.start_date = to.start_date;
  if (from.end_date !== to.end_date) fields.end_date = to.end_date;
  if (from.stage_id !== to.stage_id) fields.stage_id = to.stage_id;
  return fields;
}

function fieldsOf(card: PlanCard, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [name, card[name as keyof PlanCard]]));
}

/** A move that changes a card's length is a resize. */
function isResize(move: CardMove): boolean {
  const length = (start: string, end: string) => Date.parse(end) - Date.parse(start);
  return length(move.start_date, move.end_date) !== length(move.card.start_date, move.card.end_date);
}
