/**
 * Whether keys typed at `target` are typing: there Ctrl+Z and the Edit menu's Undo undo the
 * typing, not the app's last change.
 */
export function isTextInput(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(target.type);
}
