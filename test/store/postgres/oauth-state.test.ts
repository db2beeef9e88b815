/**
 * The OAuth bookkeeping on PostgreSQL (docs/architecture.md "Team server on PostgreSQL"): the
 * same answers as the SQLite `OAuthStore`, and what only several nodes can get wrong. Two pools
 * are two nodes on one real PostgreSQL cluster, each with a store of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { PostgresOAuthStore } from '../../../electron/store/postgres/oauth-state.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let pools: TeamDatabase['nodes'];
/** One store per node, as each node's OAuth routes would have. */
let nodes: [PostgresOAuthStore, PostgresOAuthStore];

const environmentId = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('oauth');
  pools = team.nodes;
  nodes = [new PostgresOAuthStore(pools[0]), new PostgresOAuthStore(pools[1])];
});

afterAll(() => team?.stop());

async function newClient(store = nodes[0]) {
  return store.insertClient({
    id: uuidv7(),
    name: 'Shop floor terminal',
    redirect_uris: ['https://terminal.example/callback'],
    confidential: false,
    secret_hash: null,
    environment_id: environmentId,
  });
}

async function newCode(clientId: string, expiresAt = Date.now() + 60_000): Promise<string> {
  const codeHash = uuidv7();
  await nodes[0].insertCode(codeHash, {
    client_id: clientId,
    environment_id: environmentId,
    user_id: 'planner-1',
    redirect_uri: 'https://terminal.example/callback',
    code_challenge: null,
    expires_at: expiresAt,
  });
  return codeHash;
}

async function newSignIn(clientId: string) {
  const family = await nodes[0].createFamily({ client_id: clientId, environment_id: environmentId, user_id: 'planner-1' });
  const tokenHash = uuidv7();
  await nodes[0].insertRefreshToken(tokenHash, family.id, Date.now() + 86_400_000);
  return { family, tokenHash };
}

describe('OAuth codes on PostgreSQL', () => {
  it('redeems a code exactly once when two nodes redeem it at the same moment', async () => {
    const client = await newClient();
    for (let round = 0; round < 40; round++) {
      const codeHash = await newCode(client.id);
      // Two attempts on each node, all at once.
      const taken = await Promise.all([0, 1, 0, 1].map((n) => nodes[n]!.takeCode(codeHash, client.id)));
      expect(taken.every((code) => code?.client_id === client.id)).toBe(true);
      expect(taken.filter((code) => code!.used_at === null)).toHaveLength(1);
    }
  });

  it('does not know, nor use up, a code of another client or one never issued', async () => {
    const [owner, other] = [await newClient(), await newClient()];
    const codeHash = await newCode(owner.id);
    expect(await nodes[1].takeCode(codeHash, other.id)).toBeUndefined();
    expect(await nodes[1].takeCode(uuidv7(), owner.id)).toBeUndefined();
    const taken = await nodes[0].takeCode(codeHash, owner.id);
    expect(taken).toMatchObject({ client_id: owner.id, environment_id: environmentId, user_id: 'planner-1', used_at: null });
  });

  it('revokes the sign-in of a replayed code on another node, also when the replay comes before the sign-in is linked', async () => {
    const client = await newClient();
    // The replay comes after the first node linked the code to its sign-in.
    const linked = await newCode(client.id);
    expect((await nodes[0].takeCode(linked, client.id))?.used_at).toBeNull();
    const first = await nodes[0].createFamily({ client_id: client.id, environment_id: environmentId, user_id: 'planner-1' });
    await nodes[0].linkCodeToFamily(linked, first.id);
    const replay = await nodes[1].takeCode(linked, client.id);
    expect(replay?.used_at).not.toBeNull();
    expect(replay?.family_id).toBe(first.id);
    expect((await nodes[0].family(first.id))?.revoked_at).not.toBeNull();

    // The replay reaches the second node between the first node's redemption and its link.
    const early = await newCode(client.id);
    expect((await nodes[0].takeCode(early, client.id))?.used_at).toBeNull();
    expect((await nodes[1].takeCode(early, client.id))?.used_at).not.toBeNull();
    const second = await nodes[0].createFamily({ client_id: client.id, environment_id: environmentId, user_id: 'planner-1' });
    expect((await nodes[1].family(second.id))?.revoked_at).toBeNull();
    await nodes[0].linkCodeToFamily(early, second.id);
    expect((await nodes[1].family(second.id))?.revoked_at).not.toBeNull();

    // An exchange that nobody replays keeps its sign-in.
    const clean = await newCode(client.id);
    await nodes[0].takeCode(clean, client.id);
    const third = await nodes[0].createFamily({ client_id: client.id, environment_id: environmentId, user_id: 'planner-1' });
    await nodes[0].linkCodeToFamily(clean, third.id);
    expect((await nodes[1].family(third.id))?.revoked_at).toBeNull();
  });
});

describe('refresh tokens on PostgreSQL', () => {
  it('rotates a refresh token once when two nodes use it at the same moment, and the second use revokes its family', async () => {
    const client = await newClient();
    for (let round = 0; round < 30; round++) {
      const { family, tokenHash } = await newSignIn(client.id);
      const outcomes = await Promise.all([nodes[0].useRefreshToken(tokenHash, client.id), nodes[1].useRefreshToken(tokenHash, client.id)]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['reused', 'rotated']);
      expect((await nodes[0].family(family.id))?.revoked_at).not.toBeNull();
    }
  });

  it('revokes the family when a rotated token is used again on another node, so its successor is refused', async () => {
    const client = await newClient();
    const { family, tokenHash } = await newSignIn(client.id);
    expect(await nodes[0].useRefreshToken(tokenHash, client.id)).toMatchObject({ kind: 'rotated', family });
    const successor = uuidv7();
    await nodes[0].insertRefreshToken(successor, family.id, Date.now() + 86_400_000);
    // The stolen copy of the first token, at the other node.
    expect(await nodes[1].useRefreshToken(tokenHash, client.id)).toEqual({ kind: 'reused', family });
    expect(await nodes[0].useRefreshToken(successor, client.id)).toEqual({ kind: 'revoked' });
    expect((await nodes[0].family(family.id))?.revoked_at).not.toBeNull();
  });

  it('answers unknown for another client (without using the token up) and expired after its expiry', async () => {
    const [owner, other] = [await newClient(), await newClient()];
    const { family, tokenHash } = await newSignIn(owner.id);
    expect(await nodes[1].useRefreshToken(tokenHash, other.id)).toEqual({ kind: 'unknown' });
    expect(await nodes[1].useRefreshToken(uuidv7(), owner.id)).toEqual({ kind: 'unknown' });
    expect(await nodes[1].useRefreshToken(tokenHash, owner.id, Date.now() + 2 * 86_400_000)).toEqual({ kind: 'expired' });
    expect(await nodes[0].useRefreshToken(tokenHash, owner.id)).toMatchObject({ kind: 'rotated', family });
  });
});

describe('signing keys and clients on PostgreSQL', () => {
  it('makes one signing key for all nodes when two make it at once, and each node finds the other’s', async () => {
    for (let round = 0; round < 20; round++) {
      await pools[0].query('DELETE FROM planner.signing_key');
      // Fresh stores: a node's store keeps its key once it has one.
      const [a, b] = [new PostgresOAuthStore(pools[0]), new PostgresOAuthStore(pools[1])];
      const [keyA, keyB] = await Promise.all([a.signingKey(), b.signingKey()]);
      expect(keyB.id).toBe(keyA.id);
      expect(Buffer.from(keyB.secret).equals(Buffer.from(keyA.secret))).toBe(true);
      expect(keyA.secret.length).toBe(32);
    }
    const key = await nodes[0].signingKey();
    expect((await nodes[1].keyById(key.id))?.retired).toBe(false);
    expect(await nodes[1].keyById(uuidv7())).toBeUndefined();
  });

  it('keeps clients as OAuthStore does, and deleting one revokes its sign-ins', async () => {
    const environment = uuidv7();
    const made = [];
    for (const name of ['Terminal', 'Dashboard', 'Spreadsheet']) {
      made.push(
        await nodes[0].insertClient({
          id: uuidv7(),
          name,
          redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
          confidential: true,
          secret_hash: 'digest',
          environment_id: environment,
        }),
      );
    }
    expect(made[0]).toMatchObject({
      name: 'Terminal',
      redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
      confidential: true,
    });
    expect(await nodes[1].client(made[0]!.id)).toEqual(made[0]);
    const page = await nodes[1].clientsOf(environment, 2, 1);
    expect(page.count).toBe(3);
    expect(page.rows.map((c) => c.name)).toEqual(['Dashboard', 'Spreadsheet']);
    expect(await nodes[1].clientsOf(environment, 2, 5)).toEqual({ count: 3, rows: [] });
    const renamed = await nodes[1].updateClient(made[0]!.id, { name: 'Terminal 2' });
    expect(renamed).toMatchObject({ name: 'Terminal 2', redirect_uris: made[0]!.redirect_uris });

    const { family } = await newSignIn(made[0]!.id);
    expect(await nodes[1].deleteClient(made[0]!.id)).toBe(true);
    expect(await nodes[1].deleteClient(made[0]!.id)).toBe(false);
    expect(await nodes[0].client(made[0]!.id)).toBeUndefined();
    expect(await nodes[0].updateClient(made[0]!.id, { name: 'Gone' })).toBeUndefined();
    expect((await nodes[0].family(family.id))?.revoked_at).not.toBeNull();
  });
});
