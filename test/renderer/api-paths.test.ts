import { describe, expect, it } from 'vitest';
import { apiPath, cardPath } from '../../renderer/api/paths.js';

describe('API paths built by the views', () => {
  it('escapes each id as one path segment and keeps the written text', () => {
    expect(apiPath`/v1/collection/${'c 1'}/board/${'b/2'}`).toBe('/v1/collection/c%201/board/b%2F2');
    expect(apiPath`/v1/card_relation/${'r?x=1'}`).toBe('/v1/card_relation/r%3Fx%3D1');
    expect(apiPath`/v1/card`).toBe('/v1/card');
  });

  it('puts a card under its collection', () => {
    expect(cardPath({ id: 'card#1', collection_id: 'col 9' })).toBe('/v1/collection/col%209/card/card%231');
  });
});
