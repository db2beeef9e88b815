/**
 * The labels of who books time and on what, in English (the reference: every key of the area
 * is here): the app's user (the first-start question and Settings), booking for someone else,
 * activities and time on no card, the entry editor's night shifts, overlaps and forgotten timers.
 */
export const timeMessages = {
  // Who you are: the first-start question, its form and Settings
  'appUser.askTitle': 'Who are you?',
  'appUser.askWhy': 'Time you book with the timer and the week sheet goes on your name, so payroll and billing know whose hours they are.',
  'appUser.later': 'Later',
  'appUser.how': 'Who you are',
  'appUser.existing': 'I am one of these users',
  'appUser.new': 'I am new here',
  'appUser.whichUser': 'You are',
  'appUser.firstname': 'First name',
  'appUser.lastname': 'Last name',
  'appUser.email': 'E-mail',
  'appUser.resource': 'Resource you are (optional)',
  'appUser.noResource': 'None',
  'appUser.noResourcesYet': 'There are no resources yet. Link yourself to a resource later, in Settings.',
  'appUser.linkResource': 'Resource you are',
  'appUser.linkSaved': 'Saved.',
  'appUser.thatsMe': 'That is me',
  'appUser.create': 'Create and use',
  'appUser.settingsTitle': 'You',
  'appUser.name': 'Name',
  'appUser.resourceFact': 'Resource',
  'appUser.role': 'Role',
  'appUser.role.admin': 'Admin',
  'appUser.role.manager': 'Manager',
  'appUser.role.organiser': 'Organiser',
  'appUser.role.member': 'Member',
  'appUser.role.guest': 'Guest',
  'appUser.nobody': 'Nobody is chosen yet: time booked now has no user.',
  'appUser.signedIn':
    'This app is signed in to its remote with your account, so that account is you here. Sign out on the Sync screen to be someone else.',
  'appUser.signedInArriving': 'You are signed in to the remote; your details arrive with the next sync.',
  'appUser.change': 'Change who you are',
  'appUser.forgottenHours': 'Flag a running timer after (hours)',

  // The time filters' collection search
  'filters.findCollection': 'Find a collection',
  'filters.noCollection': 'No collection matches.',

  // The export preview's money
  'export.split': 'Billable and not billable',
  'export.billableSplit': 'Billable {billable} · not billable {nonBillable}',

  // Booking for someone else
  'bookFor.label': 'Book for',
  'bookFor.nobody': 'Nobody (no user)',
  'bookFor.you': '(you)',

  // Cards, activities and time on no card
  'time.noCard': 'no card',
  'cardPicker.whichActivity': 'Which activity on {card}?',
  'cardPicker.activities': 'Activities of the card',
  'cardPicker.back': 'Back to the cards',
  'activityPicker.placeholder': 'Activity name or code',
  'activityPicker.results': 'Matching activities',
  'activityPicker.none': 'No activity matches.',
  'week.addActivity': 'Add an activity',
  'week.addActivityLabel': 'Find an activity to book on no card (a meeting, cleaning, training)',
  'week.overlap': 'Overlaps other time of the same person',
  'timer.pickActivity': 'Find the activity to time (no card)',
  'timer.noCard': 'An activity without a card…',
  'timer.startedForOther': 'Their timer is running.',

  // Mistakes caught: night shifts, overlaps, forgotten timers
  'editor.nextDay': 'Ends next day',
  'editor.endBeforeStart': 'The end is at or before the start. Tick “Ends next day” for time past midnight.',
  'editor.overlaps.one': 'This entry overlaps {count} other entry of the same person.',
  'editor.overlaps.other': 'This entry overlaps {count} other entries of the same person.',
  'entries.overlaps.one': 'Overlaps {count} other entry',
  'entries.overlaps.other': 'Overlaps {count} other entries',
  'timer.forgotten': 'Forgotten?',
  'timer.forgottenTitle': 'This timer has run longer than your limit. Set when you really stopped.',
  'forgotten.title': 'A timer was left running',
  'forgotten.question': 'Your timer on {card} has been running since {start} ({hours} hours). When did you really stop?',
  'forgotten.endDate': 'Stopped on',
  'forgotten.endTime': 'At',
  'forgotten.beforeStart': 'The end must be after the timer started.',
  'forgotten.inFuture': 'The end cannot be later than now.',
  'forgotten.stillRunning': 'It is still running',
  'forgotten.stop': 'Stop it then',
} as const;
