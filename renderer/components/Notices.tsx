/**
 * The messages of `state/notices`: confirmations read out politely, failures as alerts that
 * stay until dismissed.
 */
import { X } from 'lucide-react';
import { useT } from '../i18n/index.js';
import { useNotices } from '../state/notices.js';
import '../styles/status.css';

export function Notices() {
  const notices = useNotices((state) => state.notices);
  const dismiss = useNotices((state) => state.dismiss);
  const t = useT();
  return (
    <div className="notices" aria-live="polite">
      {notices.map((notice) => (
        <div key={notice.id} className={`notices__item notices__item--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          <span>{notice.text}</span>
          {notice.action && (
            <button
              type="button"
              className="button"
              onClick={() => {
                dismiss(notice.id);
                notice.action!.run();
              }}
            >
              {notice.action.label}
            </button>
          )}
          <button type="button" className="button button--quiet" onClick={() => dismiss(notice.id)} aria-label={t('common.dismissMessage')}>
            <X aria-hidden="true" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
