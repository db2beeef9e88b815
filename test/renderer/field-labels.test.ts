/**
 * API field errors in the screen's own words (renderer/api/field-labels.ts, docs/API.md "Field
 * rules and limits"): the label on screen and the broken rule, in English and Dutch, from the
 * error bodies the real API sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiRequestError, placeFieldErrors } from '../../renderer/api/client.js';
import { fieldLabels, fieldMessage, type LabelledResource } from '../../renderer/api/field-labels.js';
import { translatorFor } from '../../renderer/i18n/index.js';
import { placeOrderErrors } from '../../renderer/views/orders/new-order-rows.js';
import { refusalReasons } from '../../renderer/views/sync/sync-words.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

const en = translatorFor('en');
const nl = translatorFor('nl');

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

/** The error the renderer's client would throw for this request. */
async function refusal(method: string, path: string, body: unknown): Promise<ApiRequestError> {
  const res = await api.http(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  return new ApiRequestError(res.status, res.body);
}

function wording(t: typeof en, resource: LabelledResource) {
  return (item: Parameters<typeof fieldMessage>[2]) => fieldMessage(t, resource, item);
}

describe('an activity with an empty name and a negative rate', () => {
  it('says "Activity name is required" and "Hourly rate cannot be negative" beside the inputs, in English', async () => {
    const error = await refusal('POST', '/v1/activity', { description: '', hourly_rate: -5 });
    const placed = placeFieldErrors(error, ['description', 'hourly_rate'], wording(en, 'activity'));
    expect(placed.byInput).toEqual({ description: 'Activity name is required', hourly_rate: 'Hourly rate cannot be negative' });
    expect(placed.elsewhere).toEqual([]);
  });

  it('says it in Dutch when the screen is Dutch', async () => {
    const error = await refusal('POST', '/v1/activity', { description: '', hourly_rate: -5 });
    const placed = placeFieldErrors(error, ['description', 'hourly_rate'], wording(nl, 'activity'));
    expect(placed.byInput).toEqual({ description: 'Naam van de activiteit is verplicht', hourly_rate: 'Uurtarief mag niet negatief zijn' });
  });
});

describe('a surcharge rule with a percentage of 0 and a weekday 8', () => {
  it('says the percentage must be more than 0, and names the days by their label, in English and Dutch', async () => {
    const error = await refusal('POST', '/v1/surcharge_rule', { name: 'Night', weekdays: [8], percentage: 0 });
    expect(error.fieldMessages(wording(en, 'surcharge_rule'))).toEqual({
      percentage: 'Percentage must be more than 0',
      weekdays: 'Days it holds on can be at most 7',
    });
    expect(error.fieldMessages(wording(nl, 'surcharge_rule'))).toMatchObject({ percentage: 'Percentage moet meer dan 0 zijn' });
  });
});

describe('limits and order rules', () => {
  it('states the bound of a default duration in the language’s own number format', async () => {
    const error = await refusal('POST', '/v1/activity', { description: 'Forever', default_duration: 99_999_999_999 });
    expect(error.fieldMessages(wording(en, 'activity'))).toEqual({ default_duration: 'Default duration (minutes) can be at most 525,600' });
    expect(error.fieldMessages(wording(nl, 'activity'))).toEqual({
      default_duration: 'Standaardduur (minuten) mag hoogstens 525.600 zijn',
    });
  });

  it('places an empty order and a row of zero hours beside the code and the row’s quantity', async () => {
    const activity = (await api.http('POST', '/v1/activity', { description: 'Welding' })).body;
    const empty = await refusal('POST', '/v1/order', { description: ' ' });
    expect(placeOrderErrors(empty, [], wording(en, 'order')).header).toEqual({ code: 'Give the order a code or a description' });
    const error = await refusal('POST', '/v1/order', {
      code: 'SO-1',
      order_rows: [{ activity_id: activity.id, unit: 'hours', quantity: 0 }],
    });
    const placed = placeOrderErrors(error, [0], wording(nl, 'order'));
    expect(placed.rows).toEqual({ 0: { quantity: 'Aantal plant geen werk: geef meer dan 0' } });
  });

  it('names a stage’s field inside a board by the stage label, whatever its position', async () => {
    const error = await refusal('POST', '/v1/board', { name: 'Shop', stages: [{ name: 'Saw' }, { name: 'Weld', efficiency: 5000 }] });
    const placed = placeFieldErrors(error, ['name', 'stages.1.efficiency'], wording(en, 'board'));
    expect(placed.byInput).toEqual({ 'stages.1.efficiency': 'Efficiency % can be at most 1,000' });
  });
});

describe('a change the remote refused', () => {
  it('gives the reason in the screen’s words for a labelled resource, and by the field’s label and rule otherwise', async () => {
    const res = await api.http('POST', '/v1/activity', { description: '', hourly_rate: -5 });
    expect(refusalReasons(res.body, nl, 'activity')).toEqual(['Naam van de activiteit is verplicht', 'Uurtarief mag niet negatief zijn']);
    const project = await api.http('POST', '/v1/project', {});
    expect(refusalReasons(project.body, en, 'project')).toEqual(['Name is required']);
  });
});

describe('what has no wording keeps the API description', () => {
  it('leaves a field without a label, and an item without a rule, to the API description', () => {
    expect(fieldMessage(en, 'activity', { code: 10422, message: 'x', description: 'meta is wrong', field: 'meta', rule: 'type' })).toBe(
      undefined,
    );
    expect(fieldMessage(en, 'activity', { code: 10422, message: 'x', description: 'description clashes', field: 'description' })).toBe(
      undefined,
    );
  });

  it('labels every mapped field with a label of its own in both languages', () => {
    for (const labels of Object.values(fieldLabels)) {
      for (const key of Object.values(labels)) {
        expect(en(key)).not.toBe(key);
        expect(nl(key)).not.toBe(key);
      }
    }
  });
});

describe('a time entry that ends before it starts, or fills a day past 24 hours', () => {
  it('names the end by its label and the day and hours in the formats of the time screens, in English and Dutch', async () => {
    const activity = (await api.http('POST', '/v1/activity', { description: 'Welding' })).body.id as string;
    await api.http('POST', '/v1/user', { email: 'hours@example.com', role: 'member' });
    const users = (await api.http('GET', '/v1/user?limit=100')).body.data as { id: string; email: string }[];
    const user = users.find((u) => u.email === 'hours@example.com')!.id;
    const backwards = await refusal('POST', '/v1/time_tracking', {
      activity_id: activity,
      user_id: user,
      start: '2026-12-02T10:00:00Z',
      end: '2026-12-02T09:00:00Z',
    });
    expect(backwards.items.map(wording(en, 'time_tracking'))).toEqual([
      'End must be after the start. Tick “Ends next day” for time past midnight.',
    ]);
    for (const [start, end] of [
      // The user's day (Europe/Amsterdam) runs from 23:00 UTC: 12 h, then 10 h 30 (overlapping half an hour).
      ['2026-12-01T23:00:00Z', '2026-12-02T11:00:00Z'],
      ['2026-12-02T10:30:00Z', '2026-12-02T21:00:00Z'],
    ])
      expect((await api.http('POST', '/v1/time_tracking', { activity_id: activity, user_id: user, start, end })).status).toBe(201);
    const full = await refusal('POST', '/v1/time_tracking', {
      activity_id: activity,
      user_id: user,
      start: '2026-12-02T21:00:00Z',
      end: '2026-12-02T23:00:00Z',
    });
    expect(full.items[0]).toMatchObject({ rule: 'dayLimit', date: '2026-12-02', minutes: 1470 });
    const [en1] = full.items.map(wording(en, 'time_tracking'));
    const [nl1] = full.items.map(wording(nl, 'time_tracking'));
    expect(en1).toBe('Wed 2 Dec would hold 24:30 hours; a day holds at most 24');
    expect(nl1).toMatch(/^wo\.? 2 dec\.? zou 24:30 uur tellen; een dag telt hoogstens 24 uur$/);
    // The night summer time ends the day has 25 hours, and the API's limit says so.
    for (const [start, end] of [
      ['2026-10-24T22:00:00Z', '2026-10-25T10:00:00Z'],
      ['2026-10-25T10:00:00Z', '2026-10-25T23:00:00Z'],
    ])
      expect((await api.http('POST', '/v1/time_tracking', { activity_id: activity, user_id: user, start, end })).status).toBe(201);
    const long = await refusal('POST', '/v1/time_tracking', {
      activity_id: activity,
      user_id: user,
      start: '2026-10-25T12:00:00Z',
      end: '2026-10-25T13:00:00Z',
    });
    expect(long.items.map(wording(en, 'time_tracking'))).toEqual(['Sun 25 Oct would hold 26:00 hours; a day holds at most 25']);
    expect(long.items.map(wording(nl, 'time_tracking'))[0]).toMatch(
      /^zo\.? 25 okt\.? zou 26:00 uur tellen; een dag telt hoogstens 25 uur$/,
    );
  });

  it("says a timer of the user still runs, in the planner's words rather than with its raw start", async () => {
    const activity = (await api.http('POST', '/v1/activity', { description: 'Sawing' })).body.id as string;
    await api.http('POST', '/v1/user', { email: 'timer@example.com', role: 'member' });
    const users = (await api.http('GET', '/v1/user?limit=100')).body.data as { id: string; email: string }[];
    const user = users.find((u) => u.email === 'timer@example.com')!.id;
    const running = await api.http('POST', '/v1/time_tracking', {
      activity_id: activity,
      user_id: user,
      start: '2026-12-01T08:00:00Z',
      running: true,
    });
    expect(running.status, JSON.stringify(running.body)).toBe(201);
    const refused = await refusal('POST', '/v1/time_tracking', {
      activity_id: activity,
      user_id: user,
      start: '2026-12-03T08:00:00Z',
      // A new timer stops the running one: here after more than 24 hours.
      running: true,
    });
    expect(refused.items[0]).toMatchObject({ field: 'start', rule: 'timerRunning' });
    expect(refused.items.map(wording(en, 'time_tracking'))).toEqual([
      'A timer of yours has run for more than 24 hours: stop it with its real end first',
    ]);
  });
});
