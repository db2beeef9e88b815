/**
 * The planning arithmetic without the API: `planCards` (electron/api/planning/plan.ts) with a
 * fake calendar and fake day capacities, for edge cases the API cannot easily reach, and
 * `rankBetween` (rank.ts), the fractional ranks that order cards within a stage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../shared/dates.js';
import { planCards, type PlanInput, type PlanStage } from '../../electron/api/planning/plan.js';
import { rankBetween } from '../../electron/api/planning/rank.js';
import { CalendarError, shiftWorkdays, type BoardCalendar } from '../../electron/api/planning/workdays.js';

const everyDay: BoardCalendar = { isWorkday: () => true };
const weekdays: BoardCalendar = { isWorkday: (d) => isoWeekday(d) <= 5 };

function stage(id: string, activityIds: string[], extra: Partial<PlanStage> = {}): PlanStage {
  return { id, activityIds, delay_day: 0, independent: false, ...extra };
}

function input(over: Partial<PlanInput>): PlanInput {
  return {
    stages: [],
    activities: [],
    splitByActivity: false,
    forceStages: [],
    reverse: false,
    anchor: '2024-03-04',
    calendarOf: () => weekdays,
    dayCapacity: () => 480,
    ...over,
  };
}

/** Cards as `stage start..end minutes`. */
const brief = (cards: ReturnType<typeof planCards>['cards']) =>
  cards.map((c) => `${c.stageId} ${c.start_date}..${c.end_date} ${c.minutes}`);

describe('planCards: durations', () => {
  it('takes as many workdays as the minutes need, at least one', () => {
    // 100 a day, every day a workday: 250 → 3 days, 300 → 3 days, 301 → 4, 0 → 1.
    for (const [minutes, days] of [
      [250, 3],
      [300, 3],
      [301, 4],
      [0, 1],
      [1, 1],
    ] as const) {
      const result = planCards(
        input({
          stages: [stage('S', ['a'])],
          activities: [{ id: 'a', time: minutes }],
          calendarOf: () => everyDay,
          dayCapacity: () => 100,
          anchor: '2024-03-01',
        }),
      );
      expect(brief(result.cards)).toEqual([`S 2024-03-01..${addDays('2024-03-01', days - 1)} ${minutes}`]);
    }
  });

  it("asks the capacity of each day for the card's own stage, and skips days that give nothing", () => {
    const asked: string[] = [];
    const result = planCards(
      input({
        stages: [stage('A', ['a']), stage('B', ['b'])],
        activities: [
          { id: 'a', time: 500 },
          { id: 'b', time: 500 },
        ],
        calendarOf: () => everyDay,
        // Stage A: 250 a day, but nothing on 2024-03-02. Stage B: 1000 a day.
        dayCapacity: (stageId, date) => {
          asked.push(`${stageId} ${date}`);
          return stageId === 'A' ? (date === '2024-03-02' ? 0 : 250) : 1000;
        },
        anchor: '2024-03-01',
      }),
    );
    // A: 01 (250), 02 (0), 03 (500). B: 04.
    expect(brief(result.cards)).toEqual(['A 2024-03-01..2024-03-03 500', 'B 2024-03-04..2024-03-04 500']);
    expect(asked).toEqual(['A 2024-03-01', 'A 2024-03-02', 'A 2024-03-03', 'B 2024-03-04']);
  });

  it('never asks about a day the board does not work', () => {
    const asked: string[] = [];
    planCards(
      input({
        stages: [stage('S', ['a'])],
        activities: [{ id: 'a', time: 1440 }],
        anchor: '2024-03-07',
        dayCapacity: (_s, date) => (asked.push(date), 480),
      }),
    );
    expect(asked).toEqual(['2024-03-07', '2024-03-08', '2024-03-11']);
  });

  it('works with fractional capacities (8 h × 100 % × 80 % = 384)', () => {
    const result = planCards(
      input({
        stages: [stage('S', ['a'])],
        activities: [{ id: 'a', time: 768 }],
        dayCapacity: () => (480 * 100 * 80) / 10_000,
      }),
    );
    expect(brief(result.cards)).toEqual(['S 2024-03-04..2024-03-05 768']);
  });

  it('throws a CalendarError, not an endless loop, when a stage has no capacity at all', () => {
    const run = () => planCards(input({ stages: [stage('S', ['a'])], activities: [{ id: 'a', time: 1 }], dayCapacity: () => 0 }));
    expect(run).toThrow(CalendarError);
    expect(run).toThrow(/capacity/);
  });
});

describe('planCards: which cards', () => {
  it('gives each activity to the first stage that allows it, in the order of the stages', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x']), stage('B', ['x', 'y']), stage('C', ['y', 'z'])],
        activities: [
          { id: 'x', time: 60 },
          { id: 'y', time: 60 },
          { id: 'z', time: 60 },
        ],
      }),
    );
    expect(result.cards.map((c) => [c.stageId, c.activities.map((a) => a.id)])).toEqual([
      ['A', ['x']],
      ['B', ['y']],
      ['C', ['z']],
    ]);
    expect(result.unplaced).toEqual([]);
  });

  it('reports activities that no stage allows and plans the rest', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x'])],
        activities: [
          { id: 'x', time: 60 },
          { id: 'nowhere', time: 30 },
        ],
      }),
    );
    expect(result.cards.map((c) => c.stageId)).toEqual(['A']);
    expect(result.unplaced).toEqual([{ id: 'nowhere', time: 30 }]);
  });

  it('reports the activities as unplaced when no stage allows any of them (one empty card on the first stage)', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x']), stage('B', ['y'])],
        activities: [{ id: 'nowhere', time: 30 }],
      }),
    );
    expect(result.cards.map((c) => [c.stageId, c.activities])).toEqual([['A', []]]);
    expect(result.unplaced).toEqual([{ id: 'nowhere', time: 30 }]);
  });

  it('a collection without activities gets one card on the first stage, or on onlyStage', () => {
    expect(planCards(input({ stages: [stage('A', ['x']), stage('B', [])] })).cards.map((c) => c.stageId)).toEqual(['A']);
    expect(planCards(input({ stages: [stage('A', ['x']), stage('B', [])], onlyStage: 'B' })).cards.map((c) => c.stageId)).toEqual(['B']);
  });

  it('onlyStage puts every activity on that stage, allowed there or not', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x']), stage('B', ['y'])],
        activities: [
          { id: 'x', time: 480 },
          { id: 'y', time: 480 },
          { id: 'nowhere', time: 480 },
        ],
        onlyStage: 'A',
      }),
    );
    expect(brief(result.cards)).toEqual(['A 2024-03-04..2024-03-06 1440']);
    expect(result.unplaced).toEqual([]);
  });

  it('force_stages adds a card with no activities, once, in stage order', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x']), stage('B', []), stage('C', ['y'])],
        activities: [
          { id: 'x', time: 480 },
          { id: 'y', time: 480 },
        ],
        forceStages: ['B', 'A'],
      }),
    );
    expect(brief(result.cards)).toEqual(['A 2024-03-04..2024-03-04 480', 'B 2024-03-05..2024-03-05 0', 'C 2024-03-06..2024-03-06 480']);
  });

  it('splitByActivity: one card per activity, all starting together; the stage ends with its longest card', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x', 'y', 'z']), stage('B', ['w'])],
        activities: [
          { id: 'x', time: 480 },
          { id: 'y', time: 1440 },
          { id: 'z', time: 960 },
          { id: 'w', time: 480 },
        ],
        splitByActivity: true,
      }),
    );
    expect(brief(result.cards)).toEqual([
      'A 2024-03-04..2024-03-04 480',
      'A 2024-03-04..2024-03-06 1440',
      'A 2024-03-04..2024-03-05 960',
      'B 2024-03-07..2024-03-07 480',
    ]);
  });

  it('splitByActivity with a forced stage without activities still gives that stage one card', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x']), stage('B', [])],
        activities: [{ id: 'x', time: 60 }],
        splitByActivity: true,
        forceStages: ['B'],
      }),
    );
    expect(result.cards.map((c) => [c.stageId, c.activities.length])).toEqual([
      ['A', 1],
      ['B', 0],
    ]);
  });
});

describe('planCards: dates', () => {
  it('an anchor on a non-workday moves forward (forward) or back (reverse)', () => {
    const base = { stages: [stage('S', ['a'])], activities: [{ id: 'a', time: 480 }], anchor: '2024-03-09' };
    expect(brief(planCards(input(base)).cards)).toEqual(['S 2024-03-11..2024-03-11 480']);
    expect(brief(planCards(input({ ...base, reverse: true })).cards)).toEqual(['S 2024-03-08..2024-03-08 480']);
  });

  it('reverse returns the cards in stage order', () => {
    const result = planCards(
      input({
        stages: [stage('A', ['x'], { delay_day: 2 }), stage('B', ['y'])],
        activities: [
          { id: 'x', time: 960 },
          { id: 'y', time: 480 },
        ],
        reverse: true,
        anchor: '2024-03-15',
      }),
    );
    // B Fri 15; A ends the workday before B minus 2 delay days: Tue 12; 2 days: Mon 11 … Tue 12.
    expect(brief(result.cards)).toEqual(['A 2024-03-11..2024-03-12 960', 'B 2024-03-15..2024-03-15 480']);
  });

  it('an independent stage starts (forward) or ends (reverse) at the anchor, and does not move the chain', () => {
    const stages = [stage('A', ['x']), stage('I', ['i'], { independent: true, delay_day: 5 }), stage('B', ['y'])];
    const activities = [
      { id: 'x', time: 480 },
      { id: 'i', time: 1440 },
      { id: 'y', time: 480 },
    ];
    expect(brief(planCards(input({ stages, activities })).cards)).toEqual([
      'A 2024-03-04..2024-03-04 480',
      'I 2024-03-04..2024-03-06 1440',
      'B 2024-03-05..2024-03-05 480',
    ]);
    expect(brief(planCards(input({ stages, activities, reverse: true, anchor: '2024-03-15' })).cards)).toEqual([
      'A 2024-03-14..2024-03-14 480',
      'I 2024-03-13..2024-03-15 1440',
      'B 2024-03-15..2024-03-15 480',
    ]);
  });

  /** Random dependent stages, minutes and delays on a Monday–Friday board at 480 a day. */
  const chains = fc.record({
    anchor: fc.integer({ min: 0, max: 60 }).map((n) => addDays('2024-01-01', n)),
    stages: fc.array(fc.record({ minutes: fc.integer({ min: 0, max: 3000 }), delay: fc.integer({ min: 0, max: 3 }) }), {
      minLength: 1,
      maxLength: 6,
    }),
  });
  const toInput = (c: { anchor: string; stages: { minutes: number; delay: number }[] }, over: Partial<PlanInput> = {}) =>
    input({
      stages: c.stages.map((s, i) => stage(`S${i}`, [`a${i}`], { delay_day: s.delay })),
      activities: c.stages.map((s, i) => ({ id: `a${i}`, time: s.minutes })),
      anchor: c.anchor,
      ...over,
    });

  it('property: forward cards are on workdays, last max(1, ⌈minutes / 480⌉) workdays, and follow each other after the delay', () => {
    fc.assert(
      fc.property(chains, (c) => {
        const { cards } = planCards(toInput(c));
        expect(cards).toHaveLength(c.stages.length);
        cards.forEach((card, i) => {
          expect(weekdays.isWorkday(card.start_date) && weekdays.isWorkday(card.end_date)).toBe(true);
          const days = Math.max(1, Math.ceil(c.stages[i]!.minutes / 480));
          expect(shiftWorkdays(weekdays, card.start_date, days - 1)).toBe(card.end_date);
          if (i > 0) expect(card.start_date).toBe(shiftWorkdays(weekdays, cards[i - 1]!.end_date, c.stages[i - 1]!.delay + 1));
        });
      }),
      { numRuns: 300 },
    );
  });

  it("property: planning in reverse to the forward plan's end gives the same cards", () => {
    fc.assert(
      fc.property(chains, (c) => {
        const forward = planCards(toInput(c)).cards;
        const backward = planCards(toInput(c, { reverse: true, anchor: forward[forward.length - 1]!.end_date })).cards;
        expect(brief(backward)).toEqual(brief(forward));
      }),
      { numRuns: 300 },
    );
  });
});

describe('rankBetween', () => {
  it('starts in the middle of the 12-letter range and orders inserts at the ends', () => {
    expect(rankBetween(null, null)).toBe('naaaaaaaaaaa');
    expect(rankBetween('naaaaaaaaaaa', null) > 'naaaaaaaaaaa').toBe(true);
    expect(rankBetween(null, 'naaaaaaaaaaa') < 'naaaaaaaaaaa').toBe(true);
    expect(rankBetween(null, 'b') < 'b').toBe(true);
    // Appends and prepends take big steps, so a busy stage keeps 12-letter ranks.
    expect(rankBetween('naaaaaaaaaaa', null)).toHaveLength(12);
  });

  it('still finds room between two adjacent ranks by growing a letter', () => {
    expect(rankBetween('naaaaaaaaaaa', 'naaaaaaaaaab')).toBe('naaaaaaaaaaan');
    expect(rankBetween(null, 'aaaaaaaaaaab') < 'aaaaaaaaaaab').toBe(true);
  });

  it('refuses bounds in the wrong order', () => {
    expect(() => rankBetween('n', 'n')).toThrow();
    expect(() => rankBetween('u', 'n')).toThrow();
  });

  const check = (before: string | null, rank: string, after: string | null) => {
    expect(rank).toMatch(/^[a-z]+$/);
    // There is always room before a rank we make.
    expect(rankBetween(null, rank) < rank).toBe(true);
    if (before !== null) expect(rank > before, `${before} < ${rank}`).toBe(true);
    if (after !== null) expect(rank < after, `${rank} < ${after}`).toBe(true);
  };

  it('property: for any two ranks, the result is strictly between them and leaves room before it', () => {
    const rank = fc.stringMatching(/^[a-z]{0,12}[b-z]$/);
    fc.assert(
      fc.property(rank, rank, (x, y) => {
        fc.pre(x !== y);
        const [lo, hi] = x < y ? [x, y] : [y, x];
        check(lo, rankBetween(lo, hi), hi);
        check(lo, rankBetween(lo, null), null);
        check(null, rankBetween(null, hi), hi);
      }),
      { numRuns: 2000 },
    );
  });

  /** A small seeded generator, so every insert position is uniformly random. */
  function mulberry32(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('property: 3000 inserts at uniformly random places keep a strictly ordered list', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const random = mulberry32(seed);
        const list: string[] = [];
        for (let i = 0; i < 3000; i++) {
          const at = Math.floor(random() * (list.length + 1));
          const before = list[at - 1] ?? null;
          const after = list[at] ?? null;
          const rank = rankBetween(before, after);
          check(before, rank, after);
          list.splice(at, 0, rank);
        }
        expect(new Set(list).size).toBe(3000);
        expect([...list].sort()).toEqual(list);
      }),
      { numRuns: 10, endOnFailure: true },
    );
  });

  // Planning always appends a collection's cards at the end of their stage (rankFor in
  // plan-collection.ts, lastRank in card-fields.ts), so a busy stage sees thousands of appends.
  it('3000 appends at the end of a stage each get a rank', () => {
    let last: string | null = null;
    for (let i = 0; i < 3000; i++) {
      const rank = rankBetween(last, null);
      check(last, rank, null);
      last = rank;
    }
  });

  it('3000 inserts at the start of a stage (plan with before = the first card) each get a rank', () => {
    let first: string | null = null;
    for (let i = 0; i < 3000; i++) {
      const rank = rankBetween(null, first);
      check(null, rank, first);
      first = rank;
    }
  });
});
