/**
 * Keeping keyboard focus inside a panel while it is open, and giving it back afterwards.
 *
 * Tab and Shift+Tab wrap around inside the panel, so the keyboard never falls out of it into
 * the page behind. A mouse may still click elsewhere (the panel sits beside a grid the planner
 * keeps working on); the trap is for the keyboard. On close, focus returns to what had it when
 * the panel opened, or — when that is gone — to what `fallback` names.
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

const focusable = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(focusable)].filter((el) => !el.hidden && el.getClientRects().length > 0);
}

/** Wraps Tab at the panel's ends; call from the panel's onKeyDown. */
export function trapTab(event: KeyboardEvent<HTMLElement>, container: HTMLElement): void {
  if (event.key !== 'Tab' || event.isDefaultPrevented()) return;
  const items = focusableIn(container);
  const active = document.activeElement;
  if (items.length === 0) {
    event.preventDefault();
    return;
  }
  const inside = active instanceof HTMLElement && container.contains(active);
  // From the panel's own heading (focusable by script only) the next stop must still be inside.
  const ahead = inside
    ? items.filter(
        (el) =>
          el !== active &&
          Boolean(
            active.compareDocumentPosition(el) & (event.shiftKey ? Node.DOCUMENT_POSITION_PRECEDING : Node.DOCUMENT_POSITION_FOLLOWING),
          ),
      )
    : [];
  if (ahead.length === 0) {
    event.preventDefault();
    (event.shiftKey ? items[items.length - 1]! : items[0]!).focus();
  }
}

/**
 * While `open`: moves focus into `container` (to its element marked `data-autofocus`, else the
 * container itself) and remembers where it came from; on close gives it back.
 */
export function useFocusReturn(container: RefObject<HTMLElement | null>, open: boolean, fallback: () => HTMLElement | null): void {
  const opener = useRef<HTMLElement | null>(null);
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;
  useEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    const el = container.current;
    if (el && !el.contains(document.activeElement)) {
      (el.querySelector<HTMLElement>('[data-autofocus]') ?? el).focus({ preventScroll: true });
    }
    return () => {
      const back = opener.current?.isConnected ? opener.current : fallbackRef.current();
      opener.current = null;
      // After React has removed the panel: focusing now would be undone by the unmount.
      queueMicrotask(() => back?.focus({ preventScroll: true }));
    };
  }, [container, open]);
}
