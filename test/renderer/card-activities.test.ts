/** The activity time on a card defaults to (renderer/views/time/card-activities.ts). */
import { describe, expect, it } from 'vitest';
import { activityDefault } from '../../renderer/views/time/card-activities.js';

const sawing = { id: 'a1', description: 'Sawing' };
const painting = { id: 'a2', description: 'Painting' };

describe('the activity of time on a card', () => {
  it("is the card's one activity, else its stage's one", () => {
    expect(activityDefault({ activities: [{ ...sawing, time: 60 }], stage: { id: 's', name: 'Saw', activities: [painting] } })).toEqual({
      kind: 'one',
      activity: { ...sawing, time: 60 },
    });
    expect(activityDefault({ activities: [], stage: { id: 's', name: 'Saw', activities: [sawing] } })).toEqual({
      kind: 'one',
      activity: sawing,
    });
  });

  it("is the planner's choice among several, and none when there is none", () => {
    expect(activityDefault({ stage: { id: 's', name: 'Saw', activities: [sawing, painting] } })).toEqual({
      kind: 'choose',
      activities: [sawing, painting],
    });
    expect(activityDefault({ activities: [], stage: { id: 's', name: 'Saw', activities: [] } })).toEqual({ kind: 'none' });
    expect(activityDefault({})).toEqual({ kind: 'none' });
  });
});
