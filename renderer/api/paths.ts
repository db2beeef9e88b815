/**
 * Paths of the Planning API as the views build them. Ids are escaped where they go into a
 * path, so an id is never read as more than one segment.
 */

/**
 * `apiPath\`/v1/collection/${collectionId}/card/${cardId}\``: the text as written, each
 * interpolated value escaped as one path segment.
 */
export function apiPath(text: TemplateStringsArray, ...ids: readonly string[]): string {
  return text.reduce((path, part, at) => path + encodeURIComponent(ids[at - 1]!) + part);
}

/** A card as its paths need it: cards, and what hangs off them, are written under their collection (docs/API.md). */
export interface CardRef {
  id: string;
  collection_id: string;
}

export const cardPath = (card: CardRef): string => apiPath`/v1/collection/${card.collection_id}/card/${card.id}`;
