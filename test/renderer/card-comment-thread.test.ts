import { describe, expect, it } from 'vitest';
import { flattenThreads, threadComments } from '../../renderer/views/card/comment-thread.js';

const comment = (id: string, created_at: string, parent_id: string | null = null) => ({ id, parent_id, created_at, text: id });

describe('comment threads', () => {
  it('puts replies under what they answer, indented one level deeper each time', () => {
    const rows = flattenThreads(
      threadComments([
        comment('first', '2026-03-02T09:00:00Z'),
        comment('second', '2026-03-02T09:05:00Z'),
        comment('reply-to-first', '2026-03-02T09:10:00Z', 'first'),
        comment('reply-to-reply', '2026-03-02T09:20:00Z', 'reply-to-first'),
      ]),
    );
    expect(rows.map((row) => [row.comment.id, row.depth])).toEqual([
      ['first', 0],
      ['reply-to-first', 1],
      ['reply-to-reply', 2],
      ['second', 0],
    ]);
  });

  it('orders threads and replies oldest first, whatever order they arrive in', () => {
    const rows = flattenThreads(
      threadComments([
        comment('late-reply', '2026-03-02T10:00:00Z', 'a'),
        comment('b', '2026-03-02T09:30:00Z'),
        comment('early-reply', '2026-03-02T09:45:00Z', 'a'),
        comment('a', '2026-03-02T09:00:00Z'),
      ]),
    );
    expect(rows.map((row) => row.comment.id)).toEqual(['a', 'early-reply', 'late-reply', 'b']);
  });

  it('shows a reply whose parent is missing as a thread of its own, not nowhere', () => {
    const rows = flattenThreads(
      threadComments([comment('orphan', '2026-03-02T09:00:00Z', 'deleted'), comment('a', '2026-03-02T08:00:00Z')]),
    );
    expect(rows).toEqual([
      { comment: expect.objectContaining({ id: 'a' }), depth: 0 },
      { comment: expect.objectContaining({ id: 'orphan' }), depth: 0 },
    ]);
  });

  it('survives comments that name each other (or themselves) as parent, showing each once', () => {
    const rows = flattenThreads(
      threadComments([
        comment('x', '2026-03-02T09:00:00Z', 'y'),
        comment('y', '2026-03-02T09:01:00Z', 'x'),
        comment('self', '2026-03-02T09:02:00Z', 'self'),
      ]),
    );
    expect(rows.map((row) => row.comment.id).sort()).toEqual(['self', 'x', 'y']);
  });

  it('makes no threads of no comments', () => {
    expect(threadComments([])).toEqual([]);
  });
});
