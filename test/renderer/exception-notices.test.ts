/**
 * Which exceptions one notification tells about (renderer/views/exceptions/exception-notices.ts):
 * the chosen kinds only, those not told before only, all of them in one notice.
 */
import { describe, expect, it } from 'vitest';
import type { ExceptionItem } from '../../shared/exceptions.js';
import { maxNoticeBody } from '../../shared/ipc.js';
import { translatorFor } from '../../renderer/i18n/index.js';
import { newExceptionsNotice, notifiedKinds } from '../../renderer/views/exceptions/exception-notices.js';

const t = translatorFor('en');

function item(key: string, kind: ExceptionItem['kind'], text = `${key} needs you`): ExceptionItem {
  return {
    key,
    kind,
    record: { resource: 'collection', id: key, name: key },
    board_id: null,
    date: null,
    text,
    since: null,
    details: {},
    links: [],
    handling: null,
  };
}

const words = (i: ExceptionItem) => i.text;

describe('the notice for new exceptions', () => {
  const items = [
    item('late:SO-1', 'late_collection'),
    item('over:Paint', 'over_capacity'),
    item('late:SO-2', 'late_collection'),
    item('timer:Anna', 'timer_running'),
  ];

  it('tells only the kinds chosen, and only what was not told before', () => {
    const notice = newExceptionsNotice(items, ['late_collection'], new Set(['late:SO-1']), t, words);
    expect(notice).toEqual({ title: 'Planner: 1 new exception', body: 'late:SO-2 needs you', tag: 'exceptions' });
  });

  it('is nothing when nothing is new, or no kind is chosen', () => {
    expect(newExceptionsNotice(items, ['late_collection'], new Set(['late:SO-1', 'late:SO-2']), t, words)).toBeNull();
    expect(newExceptionsNotice(items, [], new Set(), t, words)).toBeNull();
  });

  it('is one notice for many: three named, the rest counted', () => {
    const many = Array.from({ length: 40 }, (_, i) => item(`late:SO-${i + 1}`, 'late_collection'));
    const notice = newExceptionsNotice(many, ['late_collection'], new Set(), t, words)!;
    expect(notice.title).toBe('Planner: 40 new exceptions');
    expect(notice.body.split('\n')).toEqual(['late:SO-1 needs you', 'late:SO-2 needs you', 'late:SO-3 needs you', 'and 37 more']);
  });

  it('speaks Dutch for a Dutch planner', () => {
    const notice = newExceptionsNotice(items, ['over_capacity', 'timer_running'], new Set(), translatorFor('nl'), words)!;
    expect(notice.title).toBe('Planner: 2 nieuwe uitzonderingen');
  });

  it('clips a body the shell would refuse', () => {
    const long = [item('late:SO-1', 'late_collection', 'x'.repeat(2_000))];
    const notice = newExceptionsNotice(long, ['late_collection'], new Set(), t, words)!;
    expect(notice.body).toHaveLength(maxNoticeBody);
    expect(notice.body.endsWith('…')).toBe(true);
  });
});

describe('the kinds a user chose', () => {
  it('are those of the record this version knows, in the inbox order', () => {
    expect(notifiedKinds({ notify_exceptions: ['timer_running', 'material_someday', 'late_collection'] })).toEqual([
      'late_collection',
      'timer_running',
    ]);
    expect(notifiedKinds(null)).toEqual([]);
    expect(notifiedKinds({ notify_exceptions: 'late_collection' })).toEqual([]);
  });
});
