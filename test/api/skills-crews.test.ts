/**
 * Skills and crews (docs/API.md "Skills and crews"), over real HTTP on either engine, worked
 * out by hand. Today is Mon 2026-12-07 (the fixed clock); plans start Mon 2027-03-01.
 *
 * Board Shop (Mon–Fri), one stage Floor allowing every activity. Ada, Bo and Cy work 480 min a
 * day, 100 % on Floor; only Cy has "welding-cert-2". Activities:
 *
 *   Weld   skill welding-cert-2, crew 1     Lift   no skill, crew 2
 *   Grind  no skill, crew 1                 Team   skill welding-cert-2, crew 3
 *
 * Finite (dry runs, so each plan sees the empty board):
 *   Weld 960: only Cy may → 480 a day → Mon 03-01 … Tue 03-02, [Cy]. (Anyone: one day, two people.)
 *   Grind 480: one person, the first by name of equals → Mon 03-01, [Ada].
 *   Lift 480: a crew of 2 → Mon 03-01, [Ada, Bo] at 240 each.
 *   Lift 960: "16 hours for a crew of 2" → one day Mon 03-01, [Ada, Bo] at 480 each.
 *   Team: one person has the skill, the crew is 3 → 422 on skill.
 * Infinite (480 a workday for a card without resources named, times its crew):
 *   Lift 960 → Mon 03-01 (2 × 480), [Ada, Bo]; Weld 960 → Mon … Tue, [Cy];
 *   Team 480 → Mon (3 × 480 ≥ 480), [Cy]: the only one there is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { fullTime, officeWeek } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Finite plans depend on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};
const skill = 'welding-cert-2';

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function activity(name: string, extra: Record<string, unknown>): Promise<void> {
  ids[name] = (await ok('POST', '/v1/activity', { description: name, resource_type: 'employee', ...extra })).id;
}

async function person(name: string, skills: string[]): Promise<void> {
  ids[name] = (
    await ok('POST', '/v1/resource', {
      name,
      workdays: fullTime,
      skills,
      boards: [{ id: ids.Shop, active: true, stages: [{ id: ids.Floor, percentage: 100, active: true }] }],
    })
  ).id;
}

/** Plans a new collection of one activity; the cards as [start, end, people by name]. */
async function plan(name: string, minutes: number, capacity: 'finite' | 'infinite'): Promise<[string, string, string[]][]> {
  const collection = await ok('POST', '/v1/collection', { name, board_id: ids.Shop, activities: [{ id: ids[name], time: minutes }] });
  const answer = await ok('POST', `/v1/collection/${collection.id}/board/${ids.Shop}?with=cards.resources`, {
    start: '2027-03-01',
    capacity,
    dry_run: true,
  });
  return answer.cards.map((c: any) => [c.start_date, c.end_date, c.resources.map((r: { id: string }) => nameOf(r.id)).sort()]);
}

function nameOf(id: string): string {
  return Object.entries(ids).find(([, value]) => value === id)?.[0] ?? id;
}

beforeAll(async () => {
  api = await startTestApi();
  await activity('Weld', { skill, crew: 1 });
  await activity('Lift', { crew: 2 });
  await activity('Grind', {});
  await activity('Team', { skill, crew: 3 });
  const board = await ok('POST', '/v1/board?with=stages', {
    name: 'Shop',
    workdays: officeWeek,
    stages: [{ name: 'Floor', activities: ['Weld', 'Lift', 'Grind', 'Team'].map((a, i) => ({ id: ids[a], priority: i })) }],
  });
  await ok('POST', `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  ids.Shop = board.id;
  ids.Floor = board.stages[0].id;
  await person('Ada', []);
  await person('Bo', []);
  await person('Cy', [skill]);
});

afterAll(async () => {
  await api.close();
});

describe('the fields', () => {
  it('default to no skills, no skill and a crew of 1', async () => {
    const resource = await ok('POST', '/v1/resource', { name: 'Dee' });
    expect(resource.skills).toEqual([]);
    const made = await ok('POST', '/v1/activity', { description: 'Sweep' });
    expect([made.skill, made.crew]).toEqual([null, 1]);
    expect((await ok('GET', `/v1/activity/${ids.Team}`)).skill).toBe(skill);
    expect((await ok('GET', `/v1/resource/${ids.Cy}`)).skills).toEqual([skill]);
  });

  it.each([
    [{ skills: 'welding' }, 'skills'],
    [{ skills: ['weld', 'weld'] }, 'each skill may be named once'],
    [{ skills: ['weld,paint'] }, 'without commas'],
    [{ skills: [' weld'] }, 'without commas or spaces at either end'],
    [{ skills: [7] }, 'each skill must be a name'],
  ])('refuses resource %j with a clear 4xx and changes nothing', async (body, words) => {
    const res = await api.http('PUT', `/v1/resource/${ids.Cy}`, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toContain(words);
    expect((await ok('GET', `/v1/resource/${ids.Cy}`)).skills).toEqual([skill]);
  });

  it.each([
    [{ crew: 0 }, 'crew'],
    [{ crew: 1.5 }, 'crew'],
    [{ crew: 51 }, 'crew'],
    [{ skill: 'weld,paint' }, 'skill'],
    [{ skill: 'x'.repeat(51) }, 'skill'],
  ])('refuses activity %j with a clear 4xx and changes nothing', async (body, field) => {
    const res = await api.http('PUT', `/v1/activity/${ids.Team}`, body);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(JSON.stringify(res.body)).toContain(field);
    const stored = await ok('GET', `/v1/activity/${ids.Team}`);
    expect([stored.skill, stored.crew]).toEqual([skill, 3]);
  });
});

describe('finite planning', () => {
  it('gives a skilled card only the people with the skill', async () => {
    expect(await plan('Weld', 960, 'finite')).toEqual([['2027-03-01', '2027-03-02', ['Cy']]]);
  });

  it('gives a crew of 1 one person, and a crew of 2 two people at once', async () => {
    expect(await plan('Grind', 480, 'finite')).toEqual([['2027-03-01', '2027-03-01', ['Ada']]]);
    expect(await plan('Lift', 480, 'finite')).toEqual([['2027-03-01', '2027-03-01', ['Ada', 'Bo']]]);
    expect(await plan('Lift', 960, 'finite')).toEqual([['2027-03-01', '2027-03-01', ['Ada', 'Bo']]]);
  });

  it('refuses a crew the stage has too few qualified people for (422 on skill)', async () => {
    const collection = await ok('POST', '/v1/collection', { name: 'Team', board_id: ids.Shop, activities: [{ id: ids.Team, time: 480 }] });
    const res = await api.http('POST', `/v1/collection/${collection.id}/board/${ids.Shop}`, { start: '2027-03-01', capacity: 'finite' });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('skill');
    expect(res.body.errors[0].description).toContain(`stage Floor has 1 person with "${skill}" for a crew of 3`);
    expect((await ok('GET', `/v1/collection/${collection.id}`)).status).toBe('not_planned');
  });

  it('counts the skill in promise dates', async () => {
    const answer = await ok('POST', `/v1/board/${ids.Shop}/promise_dates`, {
      start: '2027-03-01',
      capacity: 'finite',
      drafts: [{ key: 'weld', rows: [{ activity_id: ids.Weld, duration: 960 }] }],
    });
    expect([answer.data[0].start, answer.data[0].end]).toEqual(['2027-03-01', '2027-03-02']);
  });
});

describe('infinite planning', () => {
  it('counts a crew’s days together and assigns qualified people without the capacity check', async () => {
    expect(await plan('Lift', 960, 'infinite')).toEqual([['2027-03-01', '2027-03-01', ['Ada', 'Bo']]]);
    expect(await plan('Weld', 960, 'infinite')).toEqual([['2027-03-01', '2027-03-02', ['Cy']]]);
    expect(await plan('Team', 480, 'infinite')).toEqual([['2027-03-01', '2027-03-01', ['Cy']]]);
  });
});

describe('who is qualified, and the warning', () => {
  async function weldCard(people: string[]): Promise<string> {
    const collection = await ok('POST', '/v1/collection', { name: 'Weld by hand', board_id: ids.Shop });
    return (
      await ok('POST', `/v1/collection/${collection.id}/card`, {
        stage_id: ids.Floor,
        start_date: '2027-04-05',
        end_date: '2027-04-05',
        activities: [{ id: ids.Weld, time: 240 }],
        resources: people.map((p) => ({ id: ids[p] })),
      })
    ).id;
  }

  it('names the qualified people of the stage and warns on an assigned person who lacks the skill', async () => {
    const byBo = await weldCard(['Bo']);
    const byCy = await weldCard(['Cy']);
    const nobody = await weldCard([]);
    const read = await ok('GET', `/v1/skills?card_ids=${byBo},${byCy},${nobody}`);
    expect(read.data.map((c: any) => [nameOf(c.card_id), c.skills, c.crew, c.qualified.map((p: any) => p.name)])).toEqual([
      [byBo, [skill], 1, ['Cy']],
      [byCy, [skill], 1, ['Cy']],
      [nobody, [skill], 1, ['Cy']],
    ]);
    expect(read.data.map((c: any) => [c.unqualified, c.unstaffed])).toEqual([
      [[{ id: ids.Bo, name: 'Bo', missing: [skill] }], false],
      [[], false],
      [[], true],
    ]);
    const board = async () => (await ok('GET', `/v1/skills?board_id=${ids.Shop}`)).data.map((c: any) => c.card_id).sort();
    expect(await board()).toEqual([byBo, nobody].sort());
    // Bo gets the skill: the warning goes on the next read.
    await ok('PUT', `/v1/resource/${ids.Bo}`, { skills: [skill] });
    expect(await board()).toEqual([nobody]);
    await ok('PUT', `/v1/resource/${ids.Bo}`, { skills: [] });
  });

  it.each([
    ['', 'card_ids must name at least one card'],
    ['?card_ids=nope', "card_ids must be uuids, got 'nope'"],
    ['?board_id=x', "board_id must be a uuid, got 'x'"],
  ])('refuses GET /v1/skills%s with a 400', async (query, words) => {
    const res = await api.http('GET', `/v1/skills${query}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(words);
  });
});
