/**
 * Comments show their author (docs/API.md "The app's user"): a comment the desktop posts through
 * its bridge is written by the app's user, so the card panel can name them; a comment over HTTP
 * with a plain local API key has no author, as before.
 */
import { rmSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { tempDir } from '../helpers/api.js';

const opened: { instance: LocalInstance; folder: string }[] = [];

afterEach(async () => {
  for (const { instance, folder } of opened.splice(0)) {
    await instance.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

async function bridge(
  instance: LocalInstance,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) {
  const answer = await instance.request({ method, path, ...(query ? { query } : {}), ...(body !== undefined ? { body } : {}) });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body as any;
}

it("writes a comment posted through the bridge as the app's user, whom with=user names", async () => {
  const folder = tempDir('planner-comment-author-');
  const instance = await openLocalInstance(folder);
  opened.push({ instance, folder });
  const chosen = await bridge(instance, 'PUT', '/v1/app_user', {
    user: { firstname: 'Pat', lastname: 'Planner', email: 'pat@example.com' },
  });
  const board = await bridge(instance, 'POST', '/v1/board?with=stages', {
    name: 'Shop',
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: 'Saw', priority: 0 }],
  });
  const collection = await bridge(instance, 'POST', '/v1/collection', { name: 'SO-1', board_id: board.id });
  const card = await bridge(instance, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id });

  const comment = await bridge(instance, 'POST', `/v1/collection/${collection.id}/comment`, { card_id: card.id, text: 'Paint it green' });
  expect(comment.user_id).toBe(chosen.user_id);
  const listed = await bridge(instance, 'GET', `/v1/collection/${collection.id}/comment`, undefined, { with: 'user' });
  expect(listed.data.map((c: any) => c.user?.fullname)).toEqual(['Pat Planner']);
});
