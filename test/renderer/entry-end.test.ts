/** An entry's end typed as a time of day (renderer/views/time/entry-end.ts). */
import { describe, expect, it } from 'vitest';
import { entryEnd } from '../../renderer/views/time/entry-end.js';
import { localTimeInstant } from '../../renderer/views/time/periods.js';

const zone = 'Europe/Amsterdam';
const at = (date: string, time: string) => localTimeInstant(date, time, zone);

describe('the end of an entry', () => {
  it("is on the entry's day when it comes after the start", () => {
    expect(entryEnd(at('2026-12-03', '09:00'), '2026-12-03', '17:30', false, zone)).toEqual({
      kind: 'end',
      end: at('2026-12-03', '17:30'),
    });
  });

  it('refuses an end at or before the start instead of booking 23 hours', () => {
    expect(entryEnd(at('2026-12-03', '09:00'), '2026-12-03', '08:00', false, zone)).toEqual({ kind: 'before-start' });
    expect(entryEnd(at('2026-12-03', '09:00'), '2026-12-03', '09:00', false, zone)).toEqual({ kind: 'before-start' });
  });

  it('is on the next day when "Ends next day" is ticked: a night shift', () => {
    const end = entryEnd(at('2026-12-03', '22:00'), '2026-12-03', '06:00', true, zone);
    expect(end).toEqual({ kind: 'end', end: at('2026-12-04', '06:00') });
    expect(((end as { end: number }).end - at('2026-12-03', '22:00')) / 3_600_000).toBe(8);
  });

  it('counts the hours a clock change takes or gives on a night shift', () => {
    // Sunday 25 October 2026 the clocks go back in Amsterdam: 22:00 to 06:00 is 9 hours.
    const end = entryEnd(at('2026-10-24', '22:00'), '2026-10-24', '06:00', true, zone) as { end: number };
    expect((end.end - at('2026-10-24', '22:00')) / 3_600_000).toBe(9);
  });
});
