/**
 * What may be booked as time (issue 17, "Nothing booked by mistake"; docs/API.md "Time
 * tracking"), over real HTTP: entries on an activity with no card, the card's only activity
 * by default, an end after the start (or `overnight: true`), at most 24 hours an entry and a
 * day per user (days cut in the user's time zone), `duration` on write, `locked` written by
 * planners, and the `overlaps` and `forgotten` flags. Every refusal is a 422 (or 403) with the
 * error body that changes nothing. The same rules on a replica's push: test/sync/time-entry-rules.test.ts.
 *
 * Alice's time zone is Europe/Amsterdam (UTC+1 in November): her Monday 2 November 2026 runs
 * from 1 Nov 23:00 UTC to 2 Nov 23:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endAfterStartMessage, tooLongMessage } from '../../electron/api/time-tracking/entry-time.js';
import { lockedMessage, lockMessage, noCardMessage } from '../../electron/api/resources/time-tracking.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { expectForbidden, startRolesInstance, type Request, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { nowMs } from '../../shared/clock.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const path = '/v1/time_tracking';
let roles: RolesInstance;
let byKey: Request;
let alice: SignedInUser;
let bob: SignedInUser;
let meeting: string;
let weld: string;
let paint: string;
/** A card whose stage has one activity (Weld), and one whose stage has two. */
let weldCard: string;
let mixedCard: string;

async function created(body: Record<string, unknown>, as: Request = byKey): Promise<any> {
  const res = await as('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
async function entry(id: string): Promise<any> {
  const res = await byKey('GET', `${path}/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}
async function count(): Promise<number> {
  return (await byKey('GET', `${path}?limit=0`)).body.count;
}
/** A refused write: the field errors, with these descriptions, and the entry count unchanged. */
async function expectRefused(
  write: () => Promise<{ status: number; body: any }>,
  fields: string[],
  description?: string | RegExp,
): Promise<void> {
  const before = await count();
  const res = await write();
  expectFieldErrors(res, fields);
  if (description !== undefined) expect(res.body.errors.map((e: any) => e.description).join(' | ')).toMatch(description);
  expect(await count()).toBe(before);
}

beforeAll(async () => {
  roles = await startRolesInstance('rules');
  byKey = roles.byKey;
  alice = await roles.signIn('alice@example.com', 'member');
  bob = await roles.signIn('bob@example.com', 'member');
  const activity = async (description: string) => (await byKey('POST', '/v1/activity', { description })).body.id as string;
  meeting = await activity('Meeting');
  weld = await activity('Weld');
  paint = await activity('Paint');
  const board = (
    await byKey('POST', '/v1/board?with=stages', {
      name: 'Workshop',
      stages: [
        { name: 'Welding', activities: [{ id: weld }] },
        { name: 'Finishing', activities: [{ id: weld }, { id: paint }] },
      ],
      statuses: [{ name: 'To do', entry: true }],
    })
  ).body;
  const collection = (await byKey('POST', '/v1/collection', { name: 'SO-1001', board_id: board.id })).body.id;
  weldCard = (await byKey('POST', `/v1/collection/${collection}/card`, { stage_id: board.stages[0].id })).body.id;
  mixedCard = (await byKey('POST', `/v1/collection/${collection}/card`, { stage_id: board.stages[1].id })).body.id;
});
afterAll(async () => {
  await roles?.stop();
});

describe('what an entry is on', () => {
  it('an entry may have an activity and no card; with neither it is a 422 on card_id', async () => {
    const e = await created({ activity_id: meeting, start: '2026-10-05T08:00:00Z', end: '2026-10-05T09:00:00Z', note: 'Team meeting' });
    expect(e).toMatchObject({ card_id: null, activity_id: meeting, duration: 60 });
    expect((await byKey('GET', `${path}?filter=${encodeURIComponent('card_id:eq:null')}`)).body.data.map((x: any) => x.id)).toContain(e.id);
    await expectRefused(
      () => byKey('POST', path, { start: '2026-10-05T10:00:00Z', end: '2026-10-05T11:00:00Z' }),
      ['card_id'],
      noCardMessage,
    );
    await expectRefused(
      () => byKey('POST', path, { card_id: null, activity_id: null, start: '2026-10-05T10:00:00Z' }),
      ['card_id'],
      noCardMessage,
    );
    // Taking the activity away from an entry on no card is refused too, and changes nothing.
    expectFieldErrors(await byKey('PUT', `${path}/${e.id}`, { activity_id: null }), ['card_id']);
    expect(await entry(e.id)).toEqual(e);
  });

  it("an entry on a card gets the card's only activity when it names none; with several, or with null sent, it stays without", async () => {
    expect((await created({ card_id: weldCard, start: '2026-10-06T08:00:00Z', end: '2026-10-06T09:00:00Z' })).activity_id).toBe(weld);
    expect((await created({ card_id: mixedCard, start: '2026-10-06T09:00:00Z', end: '2026-10-06T10:00:00Z' })).activity_id).toBeNull();
    expect(
      (await created({ card_id: weldCard, activity_id: null, start: '2026-10-06T10:00:00Z', end: '2026-10-06T11:00:00Z' })).activity_id,
    ).toBeNull();
    const timer = await byKey('POST', `${path}/start`, { card_id: weldCard });
    expect(timer.status).toBe(201);
    expect(timer.body.activity_id).toBe(weld);
    expect((await byKey('POST', `${path}/${timer.body.id}/stop`, {})).status).toBe(200);
  });
});

describe('end after start, at most 24 hours', () => {
  it('refuses an end at or before the start with a 422 on end that names overnight', async () => {
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-07T09:00:00Z', end: '2026-10-07T08:00:00Z' }),
      ['end'],
      endAfterStartMessage,
    );
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-07T09:00:00Z', end: '2026-10-07T09:00:00Z' }),
      ['end'],
      /overnight: true/,
    );
    const e = await created({ activity_id: meeting, start: '2026-10-07T09:00:00Z', end: '2026-10-07T10:00:00Z' });
    expectFieldErrors(await byKey('PUT', `${path}/${e.id}`, { end: '2026-10-07T08:00:00Z' }), ['end']);
    expectFieldErrors(await byKey('PUT', `${path}/${e.id}`, { start: '2026-10-07T10:30:00Z' }), ['end']);
    expect(await entry(e.id)).toEqual(e);
  });

  it('overnight: true reads an end at or before the start as the next day', async () => {
    // Ticked "ends next day": 22:00 → 06:00 is eight hours, ending on the 9th.
    const night = await created({ activity_id: meeting, start: '2026-10-08T22:00:00Z', end: '2026-10-08T06:00:00Z', overnight: true });
    expect(night).toMatchObject({ start: '2026-10-08T22:00:00Z', end: '2026-10-09T06:00:00Z', duration: 480 });
    expect(night).not.toHaveProperty('overnight');
    // An end already after the start stays as it is.
    expect((await created({ activity_id: meeting, start: '2026-10-10T08:00:00Z', end: '2026-10-10T09:00:00Z', overnight: true })).end).toBe(
      '2026-10-10T09:00:00Z',
    );
    const moved = await byKey('PUT', `${path}/${night.id}`, {
      start: '2026-10-08T23:00:00Z',
      end: '2026-10-08T07:00:00Z',
      overnight: true,
    });
    expect(moved.body).toMatchObject({ end: '2026-10-09T07:00:00Z', duration: 480 });
    // A flag that is no boolean is refused, and so the end before the start is too.
    expectFieldErrors(
      await byKey('POST', path, { activity_id: meeting, start: '2026-10-11T22:00:00Z', end: '2026-10-11T06:00:00Z', overnight: 'yes' }),
      ['end', 'overnight'],
    );
  });

  it('an entry lasts at most 24 hours: 24 h is booked, a minute more is a 422', async () => {
    expect((await created({ activity_id: meeting, start: '2026-10-12T06:00:00Z', end: '2026-10-13T06:00:00Z' })).duration).toBe(1440);
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-14T06:00:00Z', end: '2026-10-15T06:01:00Z' }),
      ['end'],
      tooLongMessage,
    );
  });
});

describe('at most 24 hours a day for one user', () => {
  // Alice's Monday 2 November in Amsterdam: 1 Nov 23:00 UTC – 2 Nov 23:00 UTC.
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.night = (await created({ user_id: alice.id, activity_id: meeting, start: '2026-11-01T23:00:00Z', end: '2026-11-02T11:00:00Z' })).id; // 12 h
    ids.day = (await created({ user_id: alice.id, activity_id: meeting, start: '2026-11-02T11:00:00Z', end: '2026-11-02T21:00:00Z' })).id; // 10 h
  });

  it('books up to 24 hours on the day, and refuses an entry that makes it more, on create', async () => {
    ids.evening = (
      await created({ user_id: alice.id, activity_id: meeting, start: '2026-11-02T21:00:00Z', end: '2026-11-02T22:30:00Z' })
    ).id; // 23:30
    await expectRefused(
      () => byKey('POST', path, { user_id: alice.id, activity_id: meeting, start: '2026-11-02T22:00:00Z', end: '2026-11-02T23:00:00Z' }),
      ['end'],
      /24:30 hours on 2026-11-02 \(Europe\/Amsterdam\)/,
    );
    // The same hour as someone else's is booked: the limit is per user.
    await created({ user_id: bob.id, activity_id: meeting, start: '2026-11-02T22:00:00Z', end: '2026-11-02T23:00:00Z' });
    // Half an hour more fills the day exactly.
    ids.last = (await created({ user_id: alice.id, activity_id: meeting, start: '2026-11-02T22:30:00Z', end: '2026-11-02T23:00:00Z' })).id;
  });

  it("cuts days at midnight in the user's time zone: 23:30 UTC on the 2nd is already her Tuesday", async () => {
    const tuesday = await created({ user_id: alice.id, activity_id: meeting, start: '2026-11-02T23:00:00Z', end: '2026-11-03T00:30:00Z' });
    expect(tuesday.duration).toBe(90);
  });

  it('refuses a change that makes the day more than 24 hours, as a member too, and changes nothing', async () => {
    const day = await entry(ids.day!);
    expectFieldErrors(await byKey('PUT', `${path}/${ids.day}`, { start: '2026-11-02T10:00:00Z' }), ['end']);
    expectFieldErrors(await roles.as(alice)('PUT', `${path}/${ids.day}`, { end: '2026-11-02T21:30:00Z' }), ['end']);
    // Moving an entry to another user counts for that user's day.
    expect((await byKey('PUT', `${path}/${ids.last}`, { user_id: bob.id })).status).toBe(200);
    expect((await byKey('PUT', `${path}/${ids.last}`, { user_id: alice.id })).status).toBe(200);
    expect(await entry(ids.day!)).toEqual(day);
  });

  it('refuses stopping a timer where the day would hold more than 24 hours; its real end is booked', async () => {
    const timer = await created({ user_id: bob.id, activity_id: meeting, start: '2026-11-04T00:00:00Z', end: null });
    // Booked beside the running timer: its time counts only once it stops.
    await created({
      user_id: bob.id,
      activity_id: meeting,
      start: '2026-11-04T08:00:00Z',
      end: '2026-11-04T20:00:00Z',
      note: 'booked by hand',
    });
    // Stopped at 23:00 UTC (midnight in Amsterdam): 23 h of timer + 12 h booked.
    expectFieldErrors(await byKey('POST', `${path}/${timer.id}/stop`, { end: '2026-11-04T23:00:00Z' }), ['end']);
    expectFieldErrors(await roles.as(bob)('POST', `${path}/stop`, { end: '2026-11-04T23:00:00Z' }), ['end']);
    expect((await entry(timer.id)).running).toBe(true);
    const stopped = await byKey('POST', `${path}/${timer.id}/stop`, { end: '2026-11-04T08:00:00Z' });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body).toMatchObject({ running: false, duration: 480 });
  });

  it('the night summer time ends, a Sunday has 25 hours and holds all of them; a minute more is a 422 naming 25', async () => {
    // Sunday 25 October 2026 in Amsterdam: 24 Oct 22:00 UTC (CEST) – 25 Oct 23:00 UTC (CET).
    // Dora's, not Alice's: a run at that Sunday books Alice's time around now (the flags below).
    const dora = await roles.signIn('dora@example.com', 'member');
    await created({ user_id: dora.id, activity_id: meeting, start: '2026-10-24T22:00:00Z', end: '2026-10-25T10:00:00Z' }); // 12 h
    await created({ user_id: dora.id, activity_id: meeting, start: '2026-10-25T10:00:00Z', end: '2026-10-25T23:00:00Z' }); // 13 h
    const res = await byKey('POST', path, {
      user_id: dora.id,
      activity_id: meeting,
      start: '2026-10-25T12:00:00Z',
      end: '2026-10-25T12:01:00Z',
    });
    expectFieldErrors(res, ['end']);
    expect(res.body.errors[0]).toMatchObject({ rule: 'dayLimit', limit: 1500, date: '2026-10-25', minutes: 1501 });
    expect(res.body.errors[0].description).toMatch(/25:01 hours on 2026-10-25 \(Europe\/Amsterdam\); a day holds at most 25 hours/);
  });

  it('the night summer time starts, her 23-hour Sunday still holds 24 hours of overlapping entries, and no more', async () => {
    // Sunday 29 March 2026 in Amsterdam: 28 Mar 23:00 UTC (CET) – 29 Mar 22:00 UTC (CEST).
    await created({ user_id: alice.id, activity_id: meeting, start: '2026-03-28T23:00:00Z', end: '2026-03-29T22:00:00Z' }); // 23 h
    await created({ user_id: alice.id, activity_id: meeting, start: '2026-03-29T08:00:00Z', end: '2026-03-29T09:00:00Z' }); // 24:00
    await expectRefused(
      () => byKey('POST', path, { user_id: alice.id, activity_id: meeting, start: '2026-03-29T10:00:00Z', end: '2026-03-29T10:01:00Z' }),
      ['end'],
      /24:01 hours on 2026-03-29 \(Europe\/Amsterdam\); a day holds at most 24 hours/,
    );
  });
});

describe('duration on write', () => {
  it('start and duration with no end make a finished entry of that length', async () => {
    const e = await created({ activity_id: meeting, start: '2026-10-20T08:00:00Z', duration: 90 });
    expect(e).toMatchObject({ end: '2026-10-20T09:30:00Z', duration: 90, running: false });
    // A changed duration moves the end; a changed end gives the duration.
    expect((await byKey('PUT', `${path}/${e.id}`, { duration: 30 })).body).toMatchObject({ end: '2026-10-20T08:30:00Z', duration: 30 });
    expect((await byKey('PUT', `${path}/${e.id}`, { end: '2026-10-20T10:00:00Z' })).body).toMatchObject({ duration: 120 });
    // Read and written back whole (a stale duration beside a changed end): the end wins.
    const whole = await entry(e.id);
    expect((await byKey('PUT', `${path}/${e.id}`, { ...whole, end: '2026-10-20T11:00:00Z' })).body).toMatchObject({ duration: 180 });
  });

  it('a duration that disagrees with the end sent beside it, or that is 0, is a 422', async () => {
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-21T08:00:00Z', end: '2026-10-21T09:00:00Z', duration: 30 }),
      ['duration'],
    );
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-21T08:00:00Z', duration: 0 }),
      ['end'],
      endAfterStartMessage,
    );
    await expectRefused(
      () => byKey('POST', path, { activity_id: meeting, start: '2026-10-21T08:00:00Z', duration: 1441 }),
      ['end'],
      tooLongMessage,
    );
    await expectRefused(() => byKey('POST', path, { activity_id: meeting, start: '2026-10-21T08:00:00Z', duration: -5 }), ['duration']);
  });
});

describe('locked', () => {
  it('an API key or a planner locks and unlocks a finished entry; a member gets 403', async () => {
    const manager = await roles.signIn('manager@example.com', 'manager');
    const e = await created({ user_id: alice.id, activity_id: meeting, start: '2026-10-22T08:00:00Z', end: '2026-10-22T09:00:00Z' });
    expectForbidden(await roles.as(alice)('PUT', `${path}/${e.id}`, { locked: true }), lockMessage);
    const locked = await roles.as(manager)('PUT', `${path}/${e.id}`, { locked: true });
    expect(locked.body).toMatchObject({ locked: true, status: 'draft' });
    // Locked: its time, its note and a delete are refused, for the member and the API key alike.
    for (const [as, body] of [
      [roles.as(alice), { note: 'changed' }],
      [byKey, { end: '2026-10-22T10:00:00Z' }],
      [byKey, { status: 'pending' }],
    ] as const) {
      const res = await as('PUT', `${path}/${e.id}`, body);
      expectFieldErrors(res, ['status']);
      expect(res.body.errors[0].description).toBe(lockedMessage);
    }
    expectFieldErrors(await byKey('DELETE', `${path}/${e.id}`), ['id']);
    expectForbidden(await roles.as(alice)('PUT', `${path}/${e.id}`, { locked: false }), lockMessage);
    // Sent back unchanged, it is accepted; the export fields stay writable.
    expect((await byKey('PUT', `${path}/${e.id}`, { ...(await entry(e.id)), external_ref: 'payroll-7' })).status).toBe(200);
    const unlocked = await byKey('PUT', `${path}/${e.id}`, { locked: false, note: 'corrected' });
    expect(unlocked.body).toMatchObject({ locked: false, note: 'corrected' });
    // Locked at once on create.
    expect((await created({ activity_id: meeting, start: '2026-10-22T10:00:00Z', end: '2026-10-22T11:00:00Z', locked: true })).locked).toBe(
      true,
    );
  });

  it('an approved entry stays locked; a running timer cannot be locked', async () => {
    const approved = await created({
      activity_id: meeting,
      start: '2026-10-23T08:00:00Z',
      end: '2026-10-23T09:00:00Z',
      status: 'approved',
    });
    expect(approved.locked).toBe(true);
    expectFieldErrors(await byKey('PUT', `${path}/${approved.id}`, { locked: false }), ['locked']);
    expect((await byKey('PUT', `${path}/${approved.id}`, { status: 'pending' })).body).toMatchObject({ status: 'pending', locked: false });
    await expectRefused(() => byKey('POST', path, { activity_id: meeting, start: '2026-10-23T10:00:00Z', locked: true }), ['locked']);
  });
});

describe('flags: overlaps and forgotten timers', () => {
  it("overlaps lists the same user's entries that overlap, both ways, and a running timer until now; other users' do not count", async () => {
    const first = await created({ user_id: bob.id, activity_id: meeting, start: '2026-10-26T08:00:00Z', end: '2026-10-26T10:00:00Z' });
    const second = await created({ user_id: bob.id, activity_id: meeting, start: '2026-10-26T09:30:00Z', end: '2026-10-26T11:00:00Z' });
    const touching = await created({ user_id: bob.id, activity_id: meeting, start: '2026-10-26T11:00:00Z', end: '2026-10-26T12:00:00Z' });
    const someoneElse = await created({
      user_id: alice.id,
      activity_id: meeting,
      start: '2026-10-26T08:00:00Z',
      end: '2026-10-26T12:00:00Z',
    });
    expect(second.overlaps).toEqual([first.id]);
    expect((await entry(first.id)).overlaps).toEqual([second.id]);
    expect((await entry(touching.id)).overlaps).toEqual([]);
    expect((await entry(someoneElse.id)).overlaps).toEqual([]);
    const list = (
      await byKey(
        'GET',
        `${path}?filter=${encodeURIComponent(`user_id:eq:'${bob.id}',and,start:gte:2026-10-26T00:00:00Z,and,start:lt:2026-10-27T00:00:00Z`)}&sort=start`,
      )
    ).body.data;
    expect(list.map((e: any) => e.overlaps.length)).toEqual([1, 1, 0]);
    // A timer running since an hour ago overlaps an entry booked over the last half hour.
    const timer = await created({
      user_id: alice.id,
      activity_id: meeting,
      start: new Date(nowMs() - 3_600_000).toISOString(),
      end: null,
    });
    const booked = await created({
      user_id: alice.id,
      activity_id: meeting,
      start: new Date(nowMs() - 1_800_000).toISOString(),
      end: new Date(nowMs() - 600_000).toISOString(),
    });
    expect(booked.overlaps).toEqual([timer.id]);
    expect((await roles.as(alice)('GET', `${path}/running`)).body.data).toMatchObject({
      id: timer.id,
      overlaps: [booked.id],
      forgotten: false,
    });
    expect((await byKey('POST', `${path}/${timer.id}/stop`, {})).status).toBe(200);
  });

  it("a timer that has run longer than its user's forgotten_timer_hours (10 unless set) is forgotten", async () => {
    const carol = await roles.signIn('carol@example.com', 'member');
    const elevenHoursAgo = new Date(nowMs() - 11 * 3_600_000).toISOString();
    const timer = await created({ user_id: carol.id, activity_id: meeting, start: elevenHoursAgo, end: null });
    expect(timer).toMatchObject({ running: true, forgotten: true });
    expect((await roles.as(carol)('GET', `${path}/running`)).body.data.forgotten).toBe(true);
    // Carol allows herself twelve hours: the same timer is not forgotten yet.
    const setting = await roles.as(carol)('PUT', `/v1/user/${carol.id}`, { forgotten_timer_hours: 12 });
    expect(setting.status, JSON.stringify(setting.body)).toBe(200);
    expect(setting.body.forgotten_timer_hours).toBe(12);
    expect((await entry(timer.id)).forgotten).toBe(false);
    expectFieldErrors(await roles.as(carol)('PUT', `/v1/user/${carol.id}`, { forgotten_timer_hours: 0 }), ['forgotten_timer_hours']);
    // A stopped entry is never forgotten.
    const stopped = await byKey('POST', `${path}/${timer.id}/stop`, {});
    expect(stopped.body).toMatchObject({ running: false, forgotten: false });
  });

  it('starting a timer does not stop a forgotten one into an entry of more than 24 hours', async () => {
    const dave = await roles.signIn('dave@example.com', 'member');
    const old = await created({
      user_id: dave.id,
      activity_id: meeting,
      start: new Date(nowMs() - 30 * 3_600_000).toISOString(),
      end: null,
    });
    const start = await roles.as(dave)('POST', `${path}/start`, { activity_id: meeting });
    expectFieldErrors(start, ['start']);
    expect(start.body.errors[0].description).toMatch(/stop it with its real end first/);
    expect((await entry(old.id)).running).toBe(true);
    // Stopped at its real end, the next timer starts.
    expect(
      (await roles.as(dave)('POST', `${path}/stop`, { end: new Date(Date.parse(old.start) + 8 * 3_600_000).toISOString() })).status,
    ).toBe(200);
    expect((await roles.as(dave)('POST', `${path}/start`, { activity_id: meeting })).status).toBe(201);
  });
});
