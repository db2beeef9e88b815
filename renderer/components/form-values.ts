/**
 * Turning what inputs hold (always text) into what the API takes. Number inputs are
 * `type="number"`, so the browser hands over either '' or a number it could read; ranges are
 * left to the API, whose 422 then says what is wrong beside the input.
 */

/**
 * A required text. Blank is left out of a create and sent as null in an update: either way
 * the API answers "is required" for that field. Sending '' would be stored as an empty name.
 */
export function requiredText(text: string, isNew: boolean): string | null | undefined {
  const trimmed = text.trim();
  if (trimmed) return trimmed;
  return isNew ? undefined : null;
}

/** An optional text: blank clears it. */
export function optionalText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed ? trimmed : null;
}

/** A number the record must have: blank keeps the API's default (create) or the stored value (update). */
export function numberOrDefault(text: string): number | undefined {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed && Number.isFinite(value) ? value : undefined;
}

/** A number that may be empty: blank sends null. */
export function numberOrNull(text: string): number | null {
  return numberOrDefault(text) ?? null;
}

/** A stored number shown in an input; null shows as empty. */
export function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}
