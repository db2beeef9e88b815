/**
 * Automation rules (docs/API.md "Automation rules"): what a board's rules do when one of its
 * cards changes status, inside the write's own transaction, so the rule's effects are part of
 * the same command (one undo step, one sync group).
 *
 * Rules run where the write happens, and only there: on the node whose API took the write (a
 * replica offline, the team server for its web clients). Their effects are ordinary writes of
 * that node, which sync like the card's own change; the remote applying a replica's push, and
 * a replica applying a pull, write the changes as they are and never run rules (sync's effects
 * are not run again, sync/apply-mutation.ts), so a rule never fires twice for one event.
 * Effects do not fire rules of their own: a status a rule sets on the next stage's card does
 * not set the stage after it (no chains, no loops); only the lock follows it, as it follows
 * every status a card gets.
 */
import { cardDisplayName } from '../../../shared/card-display-name.js';
import type { RequestContext } from '../resource.js';
import type { RecordWrites } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';
import { refreshCardFields, type Card } from './card-fields.js';

type Rule = Stored<'automation_rule'>;
type Status = Stored<'status'>;

/** The cards of the collection's next dependent stage after the card's own: none when its stage is independent or last. */
async function nextStageCards(tx: RecordWrites, card: Card): Promise<{ stage: Stored<'stage'>; cards: Card[] } | undefined> {
  if (!card.board_id || !card.collection_id) return undefined;
  const stages = new Map((await tx.getWhereIn(tables.stage, 'board_id', [card.board_id])).map((s) => [s.id, s]));
  const own = stages.get(card.stage_id);
  if (!own || own.independent) return undefined;
  const later = (await tx.getWhereIn(tables.card, 'collection_id', [card.collection_id])).filter((c) => {
    const stage = stages.get(c.stage_id);
    return c.id !== card.id && stage !== undefined && !stage.independent && stage.priority > own.priority;
  });
  if (later.length === 0) return undefined;
  const next = later.reduce((a, b) => (stages.get(b.stage_id)!.priority < stages.get(a.stage_id)!.priority ? b : a));
  return { stage: stages.get(next.stage_id)!, cards: later.filter((c) => c.stage_id === next.stage_id) };
}

/** The lock as the board's lock rule has it for a card in `status`: unlocked in an entry status, locked past it. */
async function followLock(tx: RecordWrites, rules: readonly Rule[], card: Card, status: Status | undefined): Promise<Card> {
  if (!status || !rules.some((r) => r.action === 'lock')) return card;
  const locked = !status.entry;
  return card.locked === locked ? card : (await tx.update(tables.card, card.id, { locked }))!;
}

/** Who a notify rule tells: its user, or the users linked to the next stage's card resources (everyone when none is). */
async function recipients(tx: RecordWrites, rule: Rule, next: { cards: Card[] } | undefined): Promise<(string | null)[]> {
  if (rule.notify === 'user') return [rule.user_id];
  const links = next
    ? await tx.getWhereIn(
        tables.card_resource,
        'card_id',
        next.cards.map((c) => c.id),
      )
    : [];
  const resourceIds = [...new Set(links.map((l) => l.resource_id))];
  const users = resourceIds.length > 0 ? await tx.getWhereIn(tables.user, 'resource_id', resourceIds) : [];
  const ids = [...new Set(users.map((u) => u.id))].sort();
  return ids.length > 0 ? ids : [null];
}

/**
 * Runs the card's board's active rules for a change of its status from `previous`; nothing
 * when its status stayed, or when the write is sync applying another node's change.
 */
export async function runAutomation(ctx: RequestContext, tx: RecordWrites, card: Card, previous: Card): Promise<void> {
  if (ctx.origin === 'sync' || card.status_id === previous.status_id || !card.board_id || !card.status_id) return;
  const rules = (await tx.getWhereIn(tables.automation_rule, 'board_id', [card.board_id])).filter((r) => r.active);
  if (rules.length === 0) return;
  const statuses = new Map((await tx.getWhereIn(tables.status, 'board_id', [card.board_id])).map((s) => [s.id, s]));
  const status = statuses.get(card.status_id);
  const wasExit = previous.status_id ? statuses.get(previous.status_id)?.exit === true : false;
  await followLock(tx, rules, card, status);
  const next = await nextStageCards(tx, card);

  for (const rule of rules) {
    if (rule.action !== 'set_next_status' || !next || !rule.next_status_id) continue;
    const fires = rule.status_id === null ? status?.exit === true : rule.status_id === card.status_id;
    if (!fires) continue;
    for (const later of next.cards) {
      // Read again: an earlier rule of this write may have set it already.
      const now = (await tx.get(tables.card, later.id))!;
      if (now.status_id === rule.next_status_id) continue;
      const written = await refreshCardFields(tx, (await tx.update(tables.card, now.id, { status_id: rule.next_status_id }))!);
      await followLock(tx, rules, written, statuses.get(rule.next_status_id));
    }
  }

  if (status?.exit !== true || wasExit) return;
  const notices = rules.filter((r) => r.action === 'notify');
  if (notices.length === 0) return;
  const [collection, stage] = await Promise.all([
    card.collection_id ? tx.get(tables.collection, card.collection_id) : undefined,
    tx.get(tables.stage, card.stage_id),
  ]);
  const name = cardDisplayName(card, { collection: collection ?? null, stage: stage ?? null });
  const text = next ? `${name} is finished: ${next.stage.name} can start` : `${name} is finished`;
  for (const rule of notices) {
    for (const userId of await recipients(tx, rule, next)) {
      await tx.insert(tables.automation_notice, {
        board_id: card.board_id,
        rule_id: rule.id,
        card_id: card.id,
        collection_id: card.collection_id,
        user_id: userId,
        card_name: name.slice(0, 500),
        next_stage: next?.stage.name ?? null,
        text,
      });
    }
  }
}
