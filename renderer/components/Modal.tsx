/**
 * A modal dialog on the native <dialog> element: it keeps focus inside, makes the page behind
 * inert, and closes on Escape — all by the browser. `onClose` runs however it closes.
 */
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './modal.css';

interface ModalProps {
  title: ReactNode;
  /** Names the close button ("Close"), in the planner's language. */
  closeLabel: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
}

export function Modal({ title, closeLabel, onClose, children, className }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog ref={ref} className={className ? `modal ${className}` : 'modal'} aria-labelledby={titleId}>
      <div className="modal__header">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        <button type="button" className="button button--quiet modal__close" aria-label={closeLabel} onClick={() => close.current()}>
          <X aria-hidden="true" size={16} />
        </button>
      </div>
      {children}
    </dialog>
  );
}
