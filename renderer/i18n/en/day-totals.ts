/**
 * The labels of booked days that add up, in English (the reference: every key of the area is
 * here): the week sheet's questions and refusals about a day's total, and approving entries
 * that overlap other time of the same person.
 */
export const dayTotalsMessages = {
  // The week sheet: time that does not fit in its day
  'week.noRoomLeft': 'Only {free} of {day} is free, so {hours} does not fit. Time typed on the sheet stays within its day.',
  'week.noRoomPiece':
    '{hours} does not fit in one piece on {day}: its longest free stretch is {longest}. Time typed on the sheet stays within its day and beside the other time booked that day.',
  'week.otherWeek': 'This entry starts in the week before. Change it on that week’s sheet, or in the entries list.',

  // The week sheet: a day far over the schedule is asked about
  'week.askTitle': 'Book {hours} on {day}?',
  'week.askOverSchedule': '{day} would then hold {total}: {over} more than the {expected} scheduled that day.',
  'week.askLongDay': '{day} would then hold {total}, more than a 12-hour working day. There is no schedule to compare it with.',
  'week.askBook': 'Book {hours}',
  'week.askCorrect': 'Correct it',

  // Approving entries that overlap
  'entries.overlapQuestion.one': '{count} selected entry overlaps other time of the same person. Approve anyway?',
  'entries.overlapQuestion.other': '{count} selected entries overlap other time of the same person. Approve anyway?',
  'entries.approveAnyway': 'Approve anyway',
  'editor.approveOverlapping': 'This entry overlaps other time of the same person. Approve it anyway?',
} as const;
