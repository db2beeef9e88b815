/**
 * Undo on a team server (docs/API.md "Commands and undo"; docs/architecture.md "Team server on
 * PostgreSQL"): two API nodes on one PostgreSQL database. The same undo sent to both nodes at
 * once is done once (the other is a 409); an undo racing an edit of the same record on the
 * other node never overwrites that edit: the undo locks the records it reverts before it reads
 * what was written since, so the edit either waits and lands after it, or came first and makes
 * the undo a conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyedTeam, type KeyedTeam } from '../../helpers/team-nodes.js';

let keyed: KeyedTeam | undefined;

beforeAll(async () => {
  keyed = await startKeyedTeam('undo', 'undo', 'team-undo-key-123456');
}, 120_000);

afterAll(async () => {
  await keyed?.stop();
});

async function send(node: number, method: string, path: string, body?: unknown) {
  const response = await fetch(keyed!.nodes.urls[node]! + path, {
    method,
    headers: { ...keyed!.headers, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, command: response.headers.get('x-planner-command-id') };
}

describe('undo on two nodes of one database', () => {
  it('does the same undo once when both nodes get it at once', async () => {
    for (let round = 0; round < 10; round++) {
      const project = await send(0, 'POST', '/v1/project', { name: `Frame ${round}` });
      const edit = await send(1, 'PUT', `/v1/project/${project.body.id}`, { name: `Frame ${round}, welded` });
      expect(edit.status).toBe(200);
      const answers = await Promise.all([0, 1].map((node) => send(node, 'POST', `/v1/command/${edit.command}/undo`)));
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      expect((await send(1, 'GET', `/v1/project/${project.body.id}`)).body.name).toBe(`Frame ${round}`);
      const undos = (await send(0, 'GET', '/v1/command?limit=5')).body.data.filter(
        (c: { undoes: string | null }) => c.undoes === edit.command,
      );
      expect(undos).toHaveLength(1);
    }
  });

  it('never overwrites an edit made on the other node while it undoes', async () => {
    for (let round = 0; round < 10; round++) {
      const project = await send(0, 'POST', '/v1/project', { name: `Gate ${round}` });
      const first = await send(0, 'PUT', `/v1/project/${project.body.id}`, { name: `Gate ${round}, drilled` });
      const [undo, edit] = await Promise.all([
        send(0, 'POST', `/v1/command/${first.command}/undo`),
        send(1, 'PUT', `/v1/project/${project.body.id}`, { name: `Gate ${round}, painted` }),
      ]);
      expect(edit.status).toBe(200);
      expect([200, 409]).toContain(undo.status);
      // Whichever came first, the edit is what the record says now.
      expect((await send(1, 'GET', `/v1/project/${project.body.id}`)).body.name).toBe(`Gate ${round}, painted`);
    }
  });
});
