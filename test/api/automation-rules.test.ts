/**
 * Automation rules (docs/API.md "Automation rules", electron/api/planning/automation.ts) over
 * real HTTP, on SQLite and (vitest's postgres project) on PostgreSQL, at the fixed Monday
 * 2026-12-07. One board, "Workshop", statuses Ready (entry), Working, Done (exit), and three
 * dependent stages Cutting → Welding → Painting; each order below has one card per stage on
 * hard dates (Cutting 7–8 Dec, Welding 9–10 Dec, Painting 11 Dec). Anna (a resource, linked to
 * the user anna@example.com) is on the Welding card of every order.
 *
 * Rules: when a card is Done, the next stage's card goes to Working; a card finished tells the
 * planner Piet, and the users of the next stage's resources; a card is locked once it left
 * Ready, unlocked when it is back in Ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let api: TestApi;
const id = { board: '', other: '', ready: '', working: '', done: '', otherStatus: '', piet: '', anna: '', annaResource: '' };
const stage: Record<string, string> = {};
const rule = { next: '', notify: '', people: '', lock: '' };

async function ok(method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** A PUT of a card, answering the card and its command's id. */
async function putCard(card: any, body: Record<string, unknown>): Promise<{ card: any; command: string }> {
  const res = await api.http('PUT', `/v1/collection/${card.collection_id}/card/${card.id}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { card: res.body, command: res.headers.get('x-planner-command-id')! };
}

async function cardNow(card: any): Promise<any> {
  return ok('GET', `/v1/collection/${card.collection_id}/card/${card.id}`);
}

/** An order with a card on each stage, all Ready; answers the cards by stage name. */
async function order(name: string): Promise<Record<string, any>> {
  const collection = await ok('POST', '/v1/collection', { name, board_id: id.board });
  const days: Record<string, [string, string]> = {
    Cutting: ['2026-12-07', '2026-12-08'],
    Welding: ['2026-12-09', '2026-12-10'],
    Painting: ['2026-12-11', '2026-12-11'],
  };
  const cards: Record<string, any> = {};
  for (const [stageName, [start, end]] of Object.entries(days)) {
    cards[stageName] = await ok('POST', `/v1/collection/${collection.id}/card`, {
      stage_id: stage[stageName],
      start_date: start,
      end_date: end,
      ...(stageName === 'Welding' ? { resources: [{ id: id.annaResource }] } : {}),
    });
  }
  return cards;
}

async function notices(): Promise<any[]> {
  return (await ok('GET', '/v1/automation_notice?limit=1000&sort=text')).data;
}

beforeAll(async () => {
  api = await startTestApi();
  const board = await ok('POST', '/v1/board?with=stages,statuses', {
    name: 'Workshop',
    statuses: [
      { name: 'Ready', priority: 0, entry: true, exit: false },
      { name: 'Working', priority: 1, entry: false, exit: false },
      { name: 'Done', priority: 2, entry: false, exit: true },
    ],
    stages: ['Cutting', 'Welding', 'Painting'].map((name, priority) => ({ name, priority })),
  });
  id.board = board.id;
  const status = (name: string) => board.statuses.find((s: any) => s.name === name).id;
  id.ready = status('Ready');
  id.working = status('Working');
  id.done = status('Done');
  for (const s of board.stages) stage[s.name] = s.id;
  const other = await ok('POST', '/v1/board?with=statuses', { name: 'Other', statuses: [{ name: 'Open', entry: true }] });
  id.other = other.id;
  id.otherStatus = other.statuses[0].id;
  id.annaResource = (await ok('POST', '/v1/resource', { name: 'Anna', type: 'employee' })).id;
  await ok('POST', '/v1/user', { email: 'piet@example.com', role: 'manager' });
  await ok('POST', '/v1/user', { email: 'anna@example.com', role: 'member', resource: { id: id.annaResource } });
  const users = (await ok('GET', '/v1/user?limit=100')).data;
  id.piet = users.find((u: any) => u.email === 'piet@example.com').id;
  id.anna = users.find((u: any) => u.email === 'anna@example.com').id;
});

afterAll(async () => {
  await api?.close();
});

describe('bad rules', () => {
  it('get a 422 naming the field, and nothing is written', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ board_id: id.board, action: 'set_next_status' }, 'next_status_id'],
      [{ board_id: id.board, action: 'set_next_status', next_status_id: id.otherStatus }, 'next_status_id'],
      [{ board_id: id.board, action: 'set_next_status', status_id: id.otherStatus, next_status_id: id.working }, 'status_id'],
      [{ board_id: id.board, action: 'notify' }, 'notify'],
      [{ board_id: id.board, action: 'notify', notify: 'user' }, 'user_id'],
      [{ board_id: id.board, action: 'notify', notify: 'everyone' }, 'notify'],
      [{ board_id: id.board, action: 'dance' }, 'action'],
      [{ action: 'lock' }, 'board_id'],
    ];
    for (const [body, field] of bad) {
      const res = await api.http('POST', '/v1/automation_rule', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    const moved = await api.http('POST', '/v1/automation_rule', { board_id: '0190d1f0-0000-7000-8000-000000000000', action: 'lock' });
    expect(moved.status).toBe(422);
    expect((await ok('GET', '/v1/automation_rule')).count).toBe(0);
  });

  it("a notice is the rules' to write: a client creating or changing one gets 404/405", async () => {
    const res = await api.http('POST', '/v1/automation_notice', { text: 'hello' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await notices()).length).toBe(0);
  });
});

describe('rules that fire', () => {
  beforeAll(async () => {
    rule.next = (await ok('POST', '/v1/automation_rule', { board_id: id.board, action: 'set_next_status', next_status_id: id.working })).id;
    rule.notify = (await ok('POST', '/v1/automation_rule', { board_id: id.board, action: 'notify', notify: 'user', user_id: id.piet })).id;
    rule.people = (await ok('POST', '/v1/automation_rule', { board_id: id.board, action: 'notify', notify: 'next_resource' })).id;
    rule.lock = (await ok('POST', '/v1/automation_rule', { board_id: id.board, action: 'lock' })).id;
    // A rule moved to another board is refused: it stays on its own.
    const moved = await api.http('PUT', `/v1/automation_rule/${rule.lock}`, { board_id: id.other });
    expect(moved.status).toBe(422);
  });

  it('a card finished sets the next stage to Working, tells Piet and Anna, and locks the cards that left Ready', async () => {
    const cards = await order('SO-1');
    const { card } = await putCard(cards.Cutting, { status_id: id.done });
    expect(card.locked).toBe(true);
    expect(card.completed_at).not.toBeNull();
    const welding = await cardNow(cards.Welding);
    expect(welding.status_id).toBe(id.working);
    expect(welding.locked).toBe(true);
    // Only the next dependent stage: Painting stays Ready.
    expect((await cardNow(cards.Painting)).status_id).toBe(id.ready);
    const told = await notices();
    expect(told.map((n) => [n.user_id, n.rule_id, n.card_id, n.next_stage])).toEqual(
      expect.arrayContaining([
        [id.piet, rule.notify, cards.Cutting.id, 'Welding'],
        [id.anna, rule.people, cards.Cutting.id, 'Welding'],
      ]),
    );
    expect(told.length).toBe(2);
    expect(told[0].text).toBe('SO-1 · Cutting is finished: Welding can start');
  });

  it('the exception inbox lists a notice for its user only', async () => {
    const forPiet = await ok('GET', `/v1/exception?kind=automation_notice&user_id=${id.piet}`);
    expect(forPiet.data.map((i: any) => i.text)).toEqual(['SO-1 · Cutting is finished: Welding can start']);
    expect(forPiet.data[0]).toMatchObject({ kind: 'automation_notice', record: { resource: 'card', name: 'SO-1 · Cutting' } });
    expect(forPiet.counts.automation_notice).toBe(1);
  });

  it('a locked card does not move (422), and nothing changes; back in Ready it is unlocked and moves', async () => {
    const cards = await order('SO-2');
    await putCard(cards.Cutting, { status_id: id.working });
    const refused = await api.http('PUT', `/v1/collection/${cards.Cutting.collection_id}/card/${cards.Cutting.id}`, {
      start_date: '2026-12-14',
      end_date: '2026-12-15',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.field)).toEqual(['start_date', 'end_date']);
    const still = await cardNow(cards.Cutting);
    expect([still.start_date, still.end_date, still.locked]).toEqual(['2026-12-07', '2026-12-08', true]);
    // Working is no exit status and not the rule's: the next stage stays as it was.
    expect((await cardNow(cards.Welding)).status_id).toBe(id.ready);

    const { card } = await putCard(cards.Cutting, { status_id: id.ready });
    expect(card.locked).toBe(false);
    const moved = await putCard(cards.Cutting, { start_date: '2026-12-14', end_date: '2026-12-15' });
    expect(moved.card.start_date).toBe('2026-12-14');
  });

  it('is undone with its command: the card, the next card, the lock and the notices go back in one undo', async () => {
    const cards = await order('SO-3');
    const before = (await notices()).length;
    const { command } = await putCard(cards.Cutting, { status_id: id.done });
    expect((await notices()).length).toBe(before + 2);
    const undo = await ok('POST', `/v1/command/${command}/undo`, undefined, 200);
    expect(undo.description).toBe('Undo: Edit card');
    const cutting = await cardNow(cards.Cutting);
    expect([cutting.status_id, cutting.locked, cutting.completed_at]).toEqual([id.ready, false, null]);
    const welding = await cardNow(cards.Welding);
    expect([welding.status_id, welding.locked]).toEqual([id.ready, false]);
    expect((await notices()).length).toBe(before);
  });

  it('an inactive rule does nothing; a status that does not change fires nothing', async () => {
    await ok('PUT', `/v1/automation_rule/${rule.next}`, { active: false });
    const cards = await order('SO-4');
    await putCard(cards.Cutting, { status_id: id.done });
    expect((await cardNow(cards.Welding)).status_id).toBe(id.ready);
    const count = (await notices()).length;
    await putCard(cards.Cutting, { status_id: id.done, name: 'again' });
    expect((await notices()).length).toBe(count);
    await ok('PUT', `/v1/automation_rule/${rule.next}`, { active: true });
  });

  it('a rule for a named status fires on that status only', async () => {
    const named = await ok('POST', '/v1/automation_rule', {
      board_id: id.board,
      action: 'set_next_status',
      status_id: id.working,
      next_status_id: id.working,
    });
    const cards = await order('SO-5');
    await putCard(cards.Welding, { status_id: id.working });
    expect((await cardNow(cards.Painting)).status_id).toBe(id.working);
    expect((await cardNow(cards.Painting)).locked).toBe(true);
    await ok('DELETE', `/v1/automation_rule/${named.id}`, undefined, 204);
  });
});
