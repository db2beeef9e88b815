/**
 * Booleans written as words, in query parameters (`archived=True`) and filter values
 * (`running:eq:TRUE`): `true`, `1`, `false` and `0`, without regard to case, because real
 * clients of the public API send `True` (docs/API.md "Lists"). One reading for the API, the
 * store's filter compiler and the renderer's filter evaluation.
 */
export function booleanWord(text: string): boolean | undefined {
  const word = text.toLowerCase();
  if (word === 'true' || word === '1') return true;
  if (word === 'false' || word === '0') return false;
  return undefined;
}
