/**
 * The card's attachments: links open in a new tab (in the desktop app, in the system browser),
 * uploaded files download through the bridge. "Add file" uploads one; "Add link" records a URL.
 */
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { maxBridgeUploadBytes } from '../../../shared/ipc.js';
import type { Attachment } from '../../../shared/resources/attachment.js';
import { describeError, fieldErrors, formErrors } from '../../api/client.js';
import { ConfirmDelete } from '../../components/ConfirmDelete.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import type { CardRef } from '../../api/paths.js';
import type { CardDetail, ChosenFile } from './card-api.js';
import { cardPanelKeys, useAttachments, useCardApi, usePanelWrite } from './card-queries.js';
import { chooseFileInShell, formatBytes, hasShellFileDialog, readChosenFile, saveBlob } from './attachment-files.js';

export function AttachmentsSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const ref: CardRef = { id: card.id, collection_id: card.collection_id };
  const attachments = useAttachments(ref);
  const list = attachments.data ?? [];

  return (
    <section className="card-section card-attachments" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.attachments')}
      </h3>
      {attachments.isError && <ErrorNotice error={attachments.error} onRetry={() => void attachments.refetch()} />}
      {attachments.data && list.length === 0 && <p className="muted">{t('card.attachments.none')}</p>}
      {list.length > 0 && (
        <ul className="card-attachments__list" aria-label={t('card.attachments')}>
          {list.map((attachment) => (
            <AttachmentRow key={attachment.id} card={ref} attachment={attachment} />
          ))}
        </ul>
      )}
      <AddFile card={ref} />
      <AddLink card={ref} />
    </section>
  );
}

function AttachmentRow({ card, attachment }: { card: CardRef; attachment: Attachment }) {
  const t = useT();
  const api = useCardApi();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = usePanelWrite((cardApi) => cardApi.removeAttachment(card, attachment.id), [cardPanelKeys.attachments(card.id)]);

  async function download() {
    setDownloading(true);
    setError(null);
    try {
      saveBlob(await api.download(card, attachment), attachment.filename);
    } catch (failure) {
      setError(failure);
    } finally {
      setDownloading(false);
    }
  }

  return (
    <li className="card-attachment">
      {attachment.type === 'external' ? (
        <a className="card-attachment__name" href={attachment.file} target="_blank" rel="noopener noreferrer">
          {attachment.filename}
        </a>
      ) : (
        <>
          <span className="card-attachment__name">{attachment.filename}</span>
          <span className="muted">{formatBytes(attachment.bytes, t.locale)}</span>
          <button
            type="button"
            className="button button--quiet"
            aria-label={t('card.attachments.downloadFile', { file: attachment.filename })}
            disabled={downloading}
            onClick={() => void download()}
          >
            {t('card.attachments.download')}
          </button>
        </>
      )}
      <ConfirmDelete name={attachment.filename} pending={remove.isPending} onConfirm={() => remove.mutate(undefined)} />
      {error ? <ErrorNotice error={error} /> : null}
      {remove.error && <ErrorNotice error={remove.error} />}
    </li>
  );
}

function AddFile({ card }: { card: CardRef }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = usePanelWrite((api, file: ChosenFile) => api.upload(card, file), [cardPanelKeys.attachments(card.id)]);

  async function choose() {
    setProblem(null);
    upload.reset();
    if (!hasShellFileDialog()) {
      input.current?.click();
      return;
    }
    try {
      const choice = await chooseFileInShell();
      if (choice.kind === 'chosen') upload.mutate(choice.file);
      else if (choice.kind === 'refused') setProblem(choice.message);
    } catch (error) {
      setProblem(describeError(error));
    }
  }

  async function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > maxBridgeUploadBytes) {
      setProblem(t('card.attachments.tooLarge', { file: file.name, megabytes: maxBridgeUploadBytes / 1024 / 1024 }));
      return;
    }
    try {
      upload.mutate(await readChosenFile(file));
    } catch (error) {
      setProblem(t('card.attachments.unreadable', { file: file.name, problem: describeError(error) }));
    }
  }

  return (
    <div className="card-add-file">
      <button type="button" className="button" disabled={upload.isPending} onClick={() => void choose()}>
        {t(upload.isPending ? 'card.attachments.uploading' : 'card.attachments.addFile')}
      </button>
      {/* The browser's own file picker, opened by the button (the desktop app uses its dialog instead). */}
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        aria-label={t('card.attachments.fileInput')}
        onChange={(event) => void picked(event)}
      />
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {upload.error && <ErrorNotice error={upload.error} />}
    </div>
  );
}

function AddLink({ card }: { card: CardRef }) {
  const t = useT();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const add = usePanelWrite(
    (api, link: { name: string; url: string }) => api.addLink(card, link.name, link.url),
    [cardPanelKeys.attachments(card.id)],
  );
  const errors = fieldErrors(add.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = url.trim();
    if (!address) return;
    add.mutate(
      { name: name.trim() || address, url: address },
      {
        onSuccess: () => {
          setName('');
          setUrl('');
        },
      },
    );
  }

  return (
    <form className="card-add-link" aria-label={t('card.attachments.newLink')} onSubmit={submit} noValidate>
      <Field label={t('card.attachments.linkUrl')} error={errors.file}>
        {(control) => (
          <input
            {...control}
            type="url"
            placeholder="https://…"
            value={url}
            autoComplete="off"
            onChange={(event) => {
              setUrl(event.target.value);
              if (add.error) add.reset();
            }}
          />
        )}
      </Field>
      <Field label={t('card.attachments.linkName')} error={errors.filename}>
        {(control) => (
          <input {...control} value={name} maxLength={255} autoComplete="off" onChange={(event) => setName(event.target.value)} />
        )}
      </Field>
      <button type="submit" className="button" disabled={!url.trim() || add.isPending}>
        {t('card.attachments.addLink')}
      </button>
      {formErrors(add.error, ['file', 'filename']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
    </form>
  );
}
