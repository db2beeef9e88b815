/**
 * Backup and restore of the data folder, on real SQLite files: the backup is a consistent
 * snapshot while writes go on; a restore checks everything before it touches the current
 * data, and a file that is damaged, foreign or too new is refused with the data untouched.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Dialog } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { backUp, restoreFromBackup, type BackupCommandOptions } from '../../electron/main/backup/backup-commands.js';
import { BackupRefused, readBackupInfo, writeBackup } from '../../electron/main/backup/backup-file.js';
import { appSchema, stageBackup, swapInBackup } from '../../electron/main/backup/restore.js';
import { InstanceSlot } from '../../electron/main/instance-slot.js';
import { translator } from '../../electron/main/messages.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { bookOf } from '../../electron/store/sync-book.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

let folder: string;
let dataPath: string;
let instance: LocalInstance;

const open = () => openLocalInstance(dataPath);

async function addProject(target: Pick<LocalInstance, 'request'>, name: string, description = ''): Promise<string> {
  const response = await target.request({ method: 'POST', path: '/v1/project', body: { name, ...(description ? { description } : {}) } });
  expect(response.status).toBe(201);
  return (response.body as { id: string }).id;
}

async function projectNames(target: Pick<LocalInstance, 'request'>): Promise<string[]> {
  const response = await target.request({ method: 'GET', path: '/v1/project', query: { limit: '1000', sort: 'name' } });
  return (response.body as { data: { name: string }[] }).data.map((project) => project.name);
}

function envFile(target: LocalInstance): string {
  return DataDir.environmentFile(dataPath, target.environment.id);
}

function nodeIdOf(target: LocalInstance): string {
  return bookOf(target.dataDir.environment(target.environment.id)).getState<string>('node_id')!;
}

function digestOf(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

beforeEach(async () => {
  folder = tempDir();
  dataPath = join(folder, 'data');
  instance = await open();
});

afterEach(async () => {
  await instance?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

describe('a backup', () => {
  it('is one SQLite file holding the system database, every environment database and the attachments', async () => {
    await addProject(instance, 'Kept');
    const { checksum } = instance.dataDir.environment(instance.environment.id).files.put(Buffer.from('drawing'));
    const file = join(folder, 'backup.sqlite');
    const info = await writeBackup(instance.dataDir, file, { appVersion: '1.2.3', now: new Date('2025-06-01T10:00:00Z') });
    expect(info.entries.map((entry) => entry.path).sort()).toEqual(
      [
        `attachments/${instance.environment.id}/${checksum.slice(0, 2)}/${checksum}`,
        `env-${instance.environment.id}.sqlite`,
        'system.sqlite',
      ].sort(),
    );
    expect(readBackupInfo(file)).toEqual({ createdAt: '2025-06-01T10:00:00.000Z', appVersion: '1.2.3', entries: expect.any(Array) });
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('is a consistent snapshot while writes go on', async () => {
    const filler = 'x'.repeat(4000);
    for (let i = 0; i < 400; i++) await addProject(instance, `before ${String(i).padStart(4, '0')}`, filler);
    const file = join(folder, 'backup.sqlite');
    let done = false;
    let writtenDuring = 0;
    const writer = (async () => {
      for (let i = 0; !done; i++) {
        await addProject(instance, `during ${String(i).padStart(4, '0')}`, filler);
        writtenDuring++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const startedAt = writtenDuring;
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const writtenWhileBackingUp = writtenDuring - startedAt;
    done = true;
    await writer;
    expect(writtenWhileBackingUp).toBeGreaterThan(0);

    const staged = stageBackup(file);
    try {
      const db = new Database(join(staged.dir, `env-${instance.environment.id}.sqlite`), { readonly: true });
      const projects = (db.prepare('SELECT count(*) AS n FROM project').get() as { n: number }).n;
      const logged = (
        db.prepare("SELECT count(DISTINCT record_id) AS n FROM change_log WHERE resource = 'project' AND op = 'create'").get() as {
          n: number;
        }
      ).n;
      const orphans = db
        .prepare("SELECT count(*) AS n FROM project WHERE id NOT IN (SELECT record_id FROM change_log WHERE resource = 'project')")
        .get() as { n: number };
      db.close();
      // Every write is in the copy whole (row and change-log entry) or not at all.
      expect(projects).toBe(logged);
      expect(orphans.n).toBe(0);
      expect(projects).toBeGreaterThanOrEqual(400);
    } finally {
      staged.discard();
    }
  });
});

describe('restoring a backup', () => {
  it('brings the data back as it was, keeps the data from before aside, and makes the replica a new sync client', async () => {
    await addProject(instance, 'In the backup');
    const { checksum } = instance.dataDir.environment(instance.environment.id).files.put(Buffer.from('drawing'));
    const file = join(folder, 'backup.sqlite');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    await addProject(instance, 'After the backup');
    const oldNode = nodeIdOf(instance);
    const attachment = join(dataPath, 'attachments', instance.environment.id, checksum.slice(0, 2), checksum);
    rmSync(attachment);

    const staged = stageBackup(file);
    await instance.close();
    const outcome = await swapInBackup(dataPath, staged, open, new Date('2025-06-02T08:00:00Z'));
    staged.discard();
    instance = outcome.instance;

    expect(outcome.restored).toBe(true);
    expect(await projectNames(instance)).toEqual(['In the backup']);
    expect(readFileSync(attachment, 'utf8')).toBe('drawing');
    expect(nodeIdOf(instance)).not.toBe(oldNode);
    expect(nodeIdOf(instance)).toMatch(/^[0-9a-f]{12}$/);

    expect(outcome.asideDir).toBe(join(dataPath, 'before-restore-2025-06-02T08-00-00-000Z'));
    const aside = new Database(join(outcome.asideDir!, `env-${instance.environment.id}.sqlite`), { readonly: true });
    expect((aside.prepare('SELECT name FROM project ORDER BY name').all() as { name: string }[]).map((p) => p.name)).toEqual([
      'After the backup',
      'In the backup',
    ]);
    aside.close();
  });

  it('puts the old files back and opens them when the restored data will not open', async () => {
    await addProject(instance, 'Current');
    const file = join(folder, 'backup.sqlite');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const node = nodeIdOf(instance);
    const staged = stageBackup(file);
    await instance.close();
    let attempts = 0;
    const outcome = await swapInBackup(dataPath, staged, async () => {
      attempts++;
      if (attempts === 1) throw new Error('disk on fire');
      return open();
    });
    staged.discard();
    instance = outcome.instance;
    expect(outcome).toMatchObject({ restored: false, error: expect.objectContaining({ message: 'disk on fire' }) });
    // The old file, not the backup's copy (whose node id was reset).
    expect(nodeIdOf(instance)).toBe(node);
    expect(await projectNames(instance)).toEqual(['Current']);
    expect(readdirSync(dataPath).filter((name) => name.startsWith('before-restore'))).toEqual([]);
  });
});

describe('a file that is not a good backup is refused before anything is touched', () => {
  let file: string;

  beforeEach(async () => {
    await addProject(instance, 'Precious');
    file = join(folder, 'candidate.sqlite');
  });

  async function expectRefused(pattern: RegExp, limits = appSchema): Promise<void> {
    const files = readdirSync(dataPath).sort();
    expect(() => stageBackup(file, limits)).toThrow(BackupRefused);
    expect(() => stageBackup(file, limits)).toThrow(pattern);
    expect(readdirSync(dataPath).sort()).toEqual(files);
    expect(await projectNames(instance)).toEqual(['Precious']);
  }

  it('refuses random bytes', async () => {
    writeFileSync(file, Buffer.from('this is not a database at all, just some text'.repeat(100)));
    await expectRefused(/not a database|cannot be opened|damaged/);
  });

  it('refuses a cut-off backup', async () => {
    const whole = join(folder, 'whole.sqlite');
    await writeBackup(instance.dataDir, whole, { appVersion: 'test' });
    const bytes = readFileSync(whole);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expectRefused(/damaged|not a database|checksum|cannot be opened/);
  });

  it('refuses a database that is not a Planner backup', async () => {
    const db = new Database(file);
    db.exec("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('pancakes')");
    db.close();
    await expectRefused(/not a Planner backup/);
  });

  it('refuses a bare environment database (a copied file, not a backup)', async () => {
    copyFileSync(envFile(instance), file);
    await expectRefused(/not a Planner backup/);
  });

  it('refuses a backup made by a newer version of the app', async () => {
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    await expectRefused(/newer version of Planner/, { system: 1, environment: 3 });
  });

  it('refuses a backup whose content does not match its checksums', async () => {
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const db = new Database(file);
    db.prepare("UPDATE backup_chunk SET data = zeroblob(length(data)) WHERE path = 'system.sqlite' AND seq = 0").run();
    db.close();
    await expectRefused(/does not match its checksum/);
  });

  it('refuses a backup naming a file outside the data folder', async () => {
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const db = new Database(file);
    db.prepare("UPDATE backup_entry SET path = '../../.bashrc' WHERE kind = 'system'").run();
    db.close();
    await expectRefused(/may not hold/);
  });

  it('refuses a backup with an environment its system database does not list', async () => {
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const stranger = '01900000-0000-7000-8000-000000000000';
    const db = new Database(file);
    db.prepare(`UPDATE backup_entry SET path = 'env-${stranger}.sqlite', environment_id = ? WHERE kind = 'environment'`).run(stranger);
    db.prepare(`UPDATE backup_chunk SET path = 'env-${stranger}.sqlite' WHERE path LIKE 'env-%'`).run();
    db.close();
    await expectRefused(/does not list/);
  });

  it('refuses a backup whose database is damaged inside', async () => {
    const corrupt = join(folder, 'corrupt-system.sqlite');
    const db = new Database(corrupt);
    db.exec('PRAGMA user_version = 1; CREATE TABLE environment (id TEXT); CREATE TABLE api_key (id TEXT);');
    db.close();
    // Scramble the second page (where the tables live) but keep the header.
    const bytes = readFileSync(corrupt);
    bytes.fill(0x41, 4096, 8192);
    writeFileSync(corrupt, bytes);
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    const bundle = new Database(file);
    const hash = createHash('sha256').update(bytes).digest('hex');
    bundle.prepare("UPDATE backup_entry SET bytes = ?, sha256 = ? WHERE kind = 'system'").run(bytes.length, hash);
    bundle.prepare("DELETE FROM backup_chunk WHERE path = 'system.sqlite'").run();
    bundle.prepare("INSERT INTO backup_chunk (path, seq, data) VALUES ('system.sqlite', 0, ?)").run(bytes);
    bundle.close();
    await expectRefused(/damaged|not a database|cannot be opened|lacks the tables|empty/);
  });
});

describe('backup and restore as the planner starts them', () => {
  const t = translator('en');

  function commands(
    slot: InstanceSlot<LocalInstance>,
    dialog: Partial<Record<keyof Dialog, unknown>>,
    afterRestore = vi.fn(),
  ): BackupCommandOptions {
    return {
      slot,
      dataPath,
      reopen: open,
      dialog: dialog as BackupCommandOptions['dialog'],
      t: () => t,
      language: () => 'en',
      documentsDir: folder,
      appVersion: 'test',
      afterRestore,
    };
  }

  it('backs up to the file chosen in the save dialog, named with the date', async () => {
    await addProject(instance, 'Saved');
    const slot = new InstanceSlot(Promise.resolve(instance));
    const chosen = join(folder, 'my backup.sqlite');
    const showSaveDialog = vi.fn(async () => ({ canceled: false, filePath: chosen }));
    const result = await backUp(commands(slot, { showSaveDialog }), undefined, new Date(2025, 5, 1, 12));
    expect(result).toEqual({ status: 'saved', fileName: 'my backup.sqlite' });
    expect(showSaveDialog).toHaveBeenCalledWith(
      expect.objectContaining({
        defaultPath: join(folder, 'Planner backup 2025-06-01.sqlite'),
        filters: [{ name: 'Planner backup', extensions: ['sqlite'] }],
      }),
    );
    expect(readBackupInfo(chosen).entries.some((entry) => entry.kind === 'environment')).toBe(true);
  });

  it('refuses to back up under a name that is not .sqlite', async () => {
    const slot = new InstanceSlot(Promise.resolve(instance));
    const result = await backUp(
      commands(slot, { showSaveDialog: async () => ({ canceled: false, filePath: join(folder, 'backup.exe') }) }),
      undefined,
    );
    expect(result).toMatchObject({ status: 'failed' });
    expect(existsSync(join(folder, 'backup.exe'))).toBe(false);
  });

  it('restores after the planner confirms, swaps the instance under the open bridge, and reloads the pages', async () => {
    await addProject(instance, 'Old');
    const file = join(folder, 'backup.sqlite');
    await writeBackup(instance.dataDir, file, { appVersion: 'test', now: new Date('2025-06-01T10:00:00Z') });
    await addProject(instance, 'Newer');
    const slot = new InstanceSlot(Promise.resolve(instance));
    const changes = vi.fn();
    slot.onChange(changes);
    const afterRestore = vi.fn();
    const showMessageBox = vi.fn(async () => ({ response: 0, checkboxChecked: false }));
    const options = commands(slot, { showOpenDialog: async () => ({ canceled: false, filePaths: [file] }), showMessageBox }, afterRestore);

    const restoring = restoreFromBackup(options, undefined);
    const result = await restoring;
    expect(result).toEqual({ status: 'restored', createdAt: '2025-06-01T10:00:00.000Z' });
    expect(showMessageBox).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/Replace all data with the backup of June 1, 2025/) }),
    );
    expect(afterRestore).toHaveBeenCalledTimes(1);
    instance = await slot.get();
    expect(await projectNames(slot)).toEqual(['Old']);
    // Change events of the new instance reach the listeners the bridge registered before.
    await addProject(slot, 'After restore');
    expect(changes).toHaveBeenCalled();
  });

  it('changes nothing when the planner cancels the confirmation', async () => {
    await addProject(instance, 'Stays');
    const file = join(folder, 'backup.sqlite');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    await addProject(instance, 'Also stays');
    const slot = new InstanceSlot(Promise.resolve(instance));
    const options = commands(slot, {
      showOpenDialog: async () => ({ canceled: false, filePaths: [file] }),
      showMessageBox: async () => ({ response: 1 }),
    });
    expect(await restoreFromBackup(options, undefined)).toEqual({ status: 'canceled' });
    expect(await slot.get()).toBe(instance);
    expect(await projectNames(instance)).toEqual(['Also stays', 'Stays']);
  });

  it('refuses a damaged file without asking and without touching the data', async () => {
    await addProject(instance, 'Untouched');
    const file = join(folder, 'damaged.sqlite');
    writeFileSync(file, 'garbage');
    const before = digestOf(envFile(instance));
    const slot = new InstanceSlot(Promise.resolve(instance));
    const showMessageBox = vi.fn();
    const result = await restoreFromBackup(
      commands(slot, { showOpenDialog: async () => ({ canceled: false, filePaths: [file] }), showMessageBox }),
      undefined,
    );
    expect(result).toMatchObject({ status: 'refused', message: expect.stringMatching(/^This file cannot be restored: /) });
    expect(showMessageBox).not.toHaveBeenCalled();
    expect(await slot.get()).toBe(instance);
    expect(digestOf(envFile(instance))).toBe(before);
    expect(await projectNames(instance)).toEqual(['Untouched']);
  });

  it('warns in the confirmation when changes not yet synced would be replaced', async () => {
    const file = join(folder, 'backup.sqlite');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    await addProject(instance, 'Not synced');
    const slot = new InstanceSlot(Promise.resolve(instance));
    const showMessageBox = vi.fn(async () => ({ response: 1 }));
    await restoreFromBackup(
      commands(slot, { showOpenDialog: async () => ({ canceled: false, filePaths: [file] }), showMessageBox }),
      undefined,
    );
    expect(showMessageBox).toHaveBeenCalledWith(
      expect.objectContaining({
        detail: expect.stringMatching(/Changes not synced yet, which are not in the backup and will be replaced too: 1\./),
      }),
    );
  });
});
