/**
 * One plan per collection on a team server (electron/api/planning/one-plan.ts): two replicas
 * that planned one collection while apart push their plans at the same moment, through two
 * nodes. The remote keeps the first plan that reaches it and refuses the other with 409; the
 * collection is locked for that check, so the second push waits for the first and sees its
 * cards, and the collection never has the cards of two plans.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { call } from '../../helpers/instance.js';
import { startKeyedTeam, type KeyedTeam } from '../../helpers/team-nodes.js';

let keyed: KeyedTeam | undefined;
const ids: Record<string, string> = {};

beforeAll(async () => {
  keyed = await startKeyedTeam('one_plan', 'shop', 'team-one-plan-key-1234');
  const [a] = keyed.nodes.urls as [string];
  const board = await call(a, 'POST', '/v1/board?with=stages,statuses', keyed.headers, {
    name: 'Shop',
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: 'Saw', priority: 0 }],
  });
  expect(board.status, JSON.stringify(board.body)).toBe(201);
  ids.board = board.body.id;
  ids.stage = board.body.stages[0].id;
  ids.status = board.body.statuses[0].id;
}, 120_000);

afterAll(async () => {
  await keyed?.stop();
});

/** A replica's plan of the collection: its card, and the collection's plan write. */
function plan(clock: HybridClock, collectionId: string, startDay: string) {
  const planId = uuidv7();
  const card = {
    collection_id: collectionId,
    board_id: ids.board,
    stage_id: ids.stage,
    status_id: ids.status,
    name: 'Gate',
    start_date: startDay,
    end_date: startDay,
    plan_id: planId,
  };
  return {
    planId,
    mutations: [
      { mutation_id: 1, resource: 'card', id: uuidv7(), op: 'create', fields: card, hlc: clock.now() },
      {
        mutation_id: 2,
        resource: 'collection',
        id: collectionId,
        op: 'update',
        fields: { plan_id: planId, board_id: ids.board, status: 'planned' },
        hlc: clock.now(),
      },
    ],
  };
}

describe('two plans of one collection pushed at once through two nodes', () => {
  it('keeps one: the other is refused with 409, and the collection has the cards of one plan', async () => {
    const [a, b] = keyed!.nodes.urls as [string, string];
    for (let round = 0; round < 6; round++) {
      const made = await call(a, 'POST', '/v1/collection', keyed!.headers, { name: `Gate ${round}`, board_id: ids.board });
      const collectionId: string = made.body.id;
      const plans = [
        plan(new HybridClock(`north${round}0000000`.slice(0, 12)), collectionId, '2027-05-03'),
        plan(new HybridClock(`south${round}0000000`.slice(0, 12)), collectionId, '2027-05-10'),
      ];
      const answers = await Promise.all(
        [a, b].map((node, i) =>
          call(node, 'POST', '/v1/sync/push', keyed!.headers, { client_id: `replica-${round}-${i}`, mutations: plans[i]!.mutations }),
        ),
      );
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const outcomes = answers.map((answer) => answer.body.results.map((r: { status: string }) => r.status).join(','));
      expect(outcomes.sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual(['applied,applied', 'rejected,rejected']);
      const cards = await call(a, 'GET', `/v1/collection/${collectionId}/card`, keyed!.headers);
      const planIds = new Set(cards.body.data.map((c: { plan_id: string }) => c.plan_id));
      expect(planIds.size, `round ${round}`).toBe(1);
      const collection = await call(b, 'GET', `/v1/collection/${collectionId}`, keyed!.headers);
      expect([...planIds]).toEqual([collection.body.plan_id]);
    }
  });
});
