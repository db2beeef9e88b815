/**
 * The card's comments as threads: replies sit indented under what they answer. A comment is
 * added at the bottom ("Add comment"); "Reply" under a comment opens a reply form there.
 */
import { useId, useState, type FormEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field, Hidden } from '../../components/Field.js';
import { Timestamp } from '../../components/Timestamp.js';
import { useT } from '../../i18n/index.js';
import type { CardRef } from '../../api/paths.js';
import type { CardDetail, CommentWithAuthor } from './card-api.js';
import { cardPanelKeys, useComments, usePanelWrite } from './card-queries.js';
import { flattenThreads, threadComments } from './comment-thread.js';

/** Deeper replies stay at this indent, so a long thread never runs out of width. */
const maxIndent = 4;

export function CommentsSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const ref: CardRef = { id: card.id, collection_id: card.collection_id };
  const comments = useComments(ref);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const rows = flattenThreads(threadComments(comments.data ?? []));

  return (
    <section className="card-section card-comments" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.comments')}
      </h3>
      {comments.isError && <ErrorNotice error={comments.error} onRetry={() => void comments.refetch()} />}
      {comments.data && rows.length === 0 && <p className="muted">{t('card.comments.none')}</p>}
      {rows.length > 0 && (
        <ul className="card-comments__list" aria-label={t('card.comments')}>
          {rows.map(({ comment, depth }) => (
            <li
              key={comment.id}
              className="card-comment"
              data-depth={depth}
              style={{ marginInlineStart: `${Math.min(depth, maxIndent) * 16}px` }}
            >
              <div className="card-comment__meta">
                {depth > 0 && <Hidden>{t('card.comments.replyMark')} </Hidden>}
                {authorOf(comment) && <span className="card-comment__author">{authorOf(comment)}</span>}
                <Timestamp value={comment.created_at} />
              </div>
              <p className="card-comment__text">{comment.text}</p>
              {replyTo === comment.id ? (
                <CommentForm card={ref} parentId={comment.id} onDone={() => setReplyTo(null)} />
              ) : (
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={t('card.comments.replyTo', { comment: excerpt(comment.text) })}
                  onClick={() => setReplyTo(comment.id)}
                >
                  {t('card.comments.reply')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <CommentForm card={ref} parentId={null} />
    </section>
  );
}

function CommentForm({ card, parentId, onDone }: { card: CardRef; parentId: string | null; onDone?: () => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const add = usePanelWrite((api, body: string) => api.addComment(card, body, parentId), [cardPanelKeys.comments(card.id)]);
  const isReply = parentId !== null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim()) return;
    add.mutate(text, {
      onSuccess: () => {
        setText('');
        onDone?.();
      },
    });
  }

  return (
    <form
      className="card-comment-form"
      aria-label={t(isReply ? 'card.comments.replyForm' : 'card.comments.commentForm')}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !isReply) return;
        // Escape cancels the reply; it must not also close the panel.
        event.preventDefault();
        onDone?.();
      }}
      noValidate
    >
      <Field label={t(isReply ? 'card.comments.yourReply' : 'card.comments.newComment')} error={fieldErrors(add.error).text}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={text}
            autoFocus={isReply}
            onChange={(event) => {
              setText(event.target.value);
              if (add.error) add.reset();
            }}
          />
        )}
      </Field>
      {formErrors(add.error, ['text']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={!text.trim() || add.isPending}>
          {t(isReply ? 'card.comments.addReply' : 'card.comments.addComment')}
        </button>
        {isReply && (
          <button type="button" className="button" onClick={onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

function authorOf(comment: CommentWithAuthor): string | null {
  const user = comment.user;
  return user ? user.display_name || user.fullname || user.email : null;
}

function excerpt(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
