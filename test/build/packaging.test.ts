/**
 * The packaging dry run: electron-builder, with the project's own config
 * (build/electron-builder.yml), packs the app in --dir mode for Linux around a stand-in
 * Electron distribution (no download; the build machines cannot reach Electron's releases)
 * and without rebuilding native modules (offline). Then the result is opened and checked the
 * way the real app would be loaded: package.json `main` → the built main file in app.asar,
 * better-sqlite3's native module unpacked beside it, nothing from the source tree inside.
 *
 * It packs a snapshot of the project in a temp folder (package.json, build/, a copy of out/,
 * samples of every source folder, node_modules linked), so a build running at the same time
 * (which empties out/renderer) cannot pull files from under it.
 */
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as { listPackage(archive: string): string[]; extractFile(archive: string, file: string): Buffer };

/** Where Electron keeps its fuses: this marker, then the wire version, length and states. */
const fuseSentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const fuseNames = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];

/**
 * The files electron-builder copies and renames from an unpacked Linux Electron. The
 * executable carries a fuse wire (as a real one does) with Electron's defaults, so the
 * config's fuses are really flipped and can be read back.
 */
function standInElectron(dir: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  const wire = Buffer.concat([Buffer.from(fuseSentinel), Buffer.from([1, fuseNames.length]), Buffer.from('10110001')]);
  writeFileSync(join(dir, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stand-in Electron"\n'), wire]));
  chmodSync(join(dir, 'electron'), 0o755);
  for (const file of ['LICENSE', 'LICENSES.chromium.html', 'chrome-sandbox', 'locales/en-US.pak', 'icudtl.dat']) writeFileSync(join(dir, file), '');
}

function fusesOf(executable: string): Record<string, string> {
  const binary = readFileSync(executable);
  const at = binary.indexOf(fuseSentinel) + fuseSentinel.length;
  const states = binary.subarray(at + 2, at + 2 + binary[at + 1]!).toString('latin1');
  return Object.fromEntries(fuseNames.map((name, i) => [name, states[i] === '1' ? 'on' : states[i] === '0' ? 'off' : states[i]!]));
}

const builtFiles = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
/** Files of the source tree that must stay out of the package, placed where they really live. */
const sourceSamples = [
  'electron/main/index.ts',
  'electron/preload/index.ts',
  'electron/host/local-instance.ts',
  'renderer/App.tsx',
  'renderer/index.html',
  'shared/ipc.ts',
  'test/layers.test.ts',
  'test/build/packaging.test.ts',
  'scripts/test.mjs',
  'tsconfig.json',
  'electron.vite.config.ts',
  'vitest.config.ts',
  'README.md',
  'package-lock.json',
];

async function buildApp(): Promise<void> {
  await run(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: root });
}

/** A copy of out/ with every built file in it (retried: a build elsewhere may be mid-way). */
async function snapshotBuild(project: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!builtFiles.every((file) => existsSync(join(root, file)))) await buildApp();
    rmSync(join(project, 'out'), { recursive: true, force: true });
    try {
      cpSync(join(root, 'out'), join(project, 'out'), { recursive: true });
    } catch {
      continue;
    }
    if (builtFiles.every((file) => existsSync(join(project, file)))) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error('out/ could not be copied whole; is a build running in a loop?');
}

let temp: string;
let appDir: string;
let archive: string;
let entries: string[];

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'planner-packaging-'));
  const project = join(temp, 'project');
  mkdirSync(project);
  await snapshotBuild(project);
  cpSync(join(root, 'package.json'), join(project, 'package.json'));
  cpSync(join(root, 'build'), join(project, 'build'), { recursive: true });
  for (const file of sourceSamples) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(project, file)), { recursive: true });
    cpSync(join(root, file), join(project, file));
  }
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'), 'junction');
  standInElectron(join(temp, 'electron-dist'));
  await run(
    process.execPath,
    [
      join(root, 'node_modules/electron-builder/cli.js'),
      '--dir',
      '--linux',
      '--x64',
      '--projectDir',
      project,
      '--config',
      'build/electron-builder.yml',
      `-c.electronDist=${join(temp, 'electron-dist')}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${join(temp, 'dist')}`,
    ],
    { cwd: project, maxBuffer: 64 * 1024 * 1024 },
  );
  appDir = join(temp, 'dist/linux-unpacked');
  archive = join(appDir, 'resources/app.asar');
  entries = asar.listPackage(archive).map((entry) => entry.split('\\').join('/'));
}, 180_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe('the packaged app (electron-builder --dir, stand-in Electron)', () => {
  it('is an executable named after the app, with its code in resources/app.asar', () => {
    expect(existsSync(join(appDir, 'planner'))).toBe(true);
    expect(existsSync(archive)).toBe(true);
  });

  it('holds the built app from out/: main, preload and renderer', () => {
    for (const file of ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html']) expect(entries).toContain(file);
  });

  it('holds no tests, sources, configs or build resources of the project', () => {
    // The snapshot really had them, where the project has them.
    expect(sourceSamples.filter((file) => existsSync(join(temp, 'project', file))).length).toBeGreaterThan(8);
    const own = entries.filter((entry) => entry !== '/node_modules' && !entry.startsWith('/node_modules/'));
    expect(own.filter((entry) => /^\/(test|electron|renderer|shared|scripts|build|docs|src)(\/|$)/.test(entry))).toEqual([]);
    expect(own.filter((entry) => /\.(ts|tsx|mts|map)$/.test(entry))).toEqual([]);
    expect(own.filter((entry) => entry !== '/package.json' && entry !== '/out' && !entry.startsWith('/out/'))).toEqual([]);
  });

  it('holds the production dependencies and none of the development ones', () => {
    for (const name of ['better-sqlite3', 'fastify', 'jose', 'exceljs', 'pdfkit']) expect(entries).toContain(`/node_modules/${name}/package.json`);
    for (const name of ['electron', 'electron-builder', 'vitest', 'typescript', 'react', 'vite']) expect(entries).not.toContain(`/node_modules/${name}/package.json`);
  });

  it('unpacks better-sqlite3’s native module from the asar, where Node can load it', () => {
    const native = join(appDir, 'resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(existsSync(native)).toBe(true);
    expect(readFileSync(native).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46])); // ELF
    // Only what loads at run time: not SQLite's sources or the compiler's leftovers.
    expect(existsSync(join(appDir, 'resources/app.asar.unpacked/node_modules/better-sqlite3/deps'))).toBe(false);
    expect(existsSync(join(appDir, 'resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/obj.target'))).toBe(false);
  });

  it('has package.json main pointing at the built main file, which is in the asar', () => {
    const manifest = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { main: string; productName: string; devDependencies?: unknown; scripts?: unknown };
    expect(manifest.main).toBe('out/main/index.js');
    expect(entries).toContain(`/${posix.normalize(manifest.main)}`);
    expect(asar.extractFile(archive, manifest.main).length).toBeGreaterThan(1000);
    expect(manifest.productName).toBe('Planner');
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts).toBeUndefined();
  });

  it('loads the preload and renderer from where the built main file looks for them', () => {
    const main = asar.extractFile(archive, 'out/main/index.js').toString('utf8');
    expect(main).toContain('../preload/index.cjs');
    expect(main).toContain('../renderer');
  });

  it('flips the Electron fuses the config asks for', () => {
    expect(fusesOf(join(appDir, 'planner'))).toMatchObject({
      runAsNode: 'off',
      enableCookieEncryption: 'on',
      enableNodeOptionsEnvironmentVariable: 'off',
      enableNodeCliInspectArguments: 'off',
      enableEmbeddedAsarIntegrityValidation: 'on',
      onlyLoadAppFromAsar: 'on',
      grantFileProtocolExtraPrivileges: 'off',
    });
  });
});
