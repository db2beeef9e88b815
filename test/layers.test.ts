/**
 * The layer rules of ARCHITECTURE.md §2, checked on every import in the tree: relative
 * imports are resolved to the folder they land in, package imports are checked by name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

type Layer = 'shared' | 'renderer' | 'api' | 'store' | 'sync' | 'host' | 'main' | 'preload' | 'test' | 'other';

const mayImport: Record<Layer, readonly Layer[] | 'anything'> = {
  shared: ['shared'],
  renderer: ['renderer', 'shared'],
  api: ['api', 'store', 'shared'],
  store: ['store', 'shared'],
  sync: ['sync', 'store', 'shared'],
  host: ['host', 'api', 'store', 'sync', 'shared'],
  main: ['main', 'preload', 'host', 'api', 'store', 'sync', 'shared'],
  preload: ['preload', 'shared'],
  test: 'anything',
  other: 'anything',
};

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const backendPackages = ['better-sqlite3', 'fastify', 'jose', '@fastify/'];

function layerOf(file: string): Layer {
  const path = relative(root, file).split('\\').join('/');
  if (path.startsWith('shared/')) return 'shared';
  if (path.startsWith('renderer/')) return 'renderer';
  if (path.startsWith('test/')) return 'test';
  const m = /^electron\/(api|store|sync|host|main|preload)\//.exec(path);
  if (m) return m[1] as Layer;
  if (path === 'electron/server.ts') return 'host';
  return 'other';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

export function importsOf(source: string): string[] {
  return [...source.matchAll(importPattern)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]!);
}

function problemsOf(file: string): string[] {
  const from = layerOf(file);
  const allowed = mayImport[from];
  const problems: string[] = [];
  for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
    const where = `${relative(root, file)} imports ${specifier}`;
    if (specifier.startsWith('.')) {
      const to = layerOf(resolve(dirname(file), specifier));
      if (allowed !== 'anything' && !allowed.includes(to)) problems.push(`${where}: ${from} may not import ${to}`);
      continue;
    }
    if (specifier === 'electron' || specifier.startsWith('electron/')) {
      if (from !== 'main' && from !== 'preload' && from !== 'test') problems.push(`${where}: only electron/main and electron/preload import electron`);
    } else if (nodeBuiltins.has(specifier) || nodeBuiltins.has(specifier.split('/')[0]!)) {
      if (from === 'shared' || from === 'renderer') problems.push(`${where}: ${from} must not use Node modules`);
    } else if (backendPackages.some((p) => specifier === p || specifier.startsWith(p))) {
      if (from === 'shared' || from === 'renderer') problems.push(`${where}: ${from} must not use backend packages`);
    } else if (from === 'shared' && !specifier.startsWith('.')) {
      problems.push(`${where}: shared/ is pure and imports no packages`);
    }
  }
  return problems;
}

describe('layer rules (ARCHITECTURE.md §2)', () => {
  const files = ['shared', 'renderer', 'electron'].flatMap((dir) => sourceFiles(join(root, dir)));

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('has no import that crosses a layer the wrong way', () => {
    expect(files.flatMap(problemsOf)).toEqual([]);
  });

  it('catches a crossing when one is there', () => {
    // The checker itself must be able to fail: feed it imports that break each rule.
    const check = (path: string, source: string) => {
      const from = layerOf(join(root, path));
      return importsOf(source).filter((specifier) => {
        if (specifier === 'electron') return from !== 'main' && from !== 'preload';
        if (specifier.startsWith('node:')) return from === 'shared' || from === 'renderer';
        const to = layerOf(resolve(dirname(join(root, path)), specifier));
        const allowed = mayImport[from];
        return allowed !== 'anything' && !allowed.includes(to);
      });
    };
    expect(check('renderer/x.ts', "import { DataDir } from '../electron/store/data-dir.js';")).toHaveLength(1);
    expect(check('shared/x.ts', "import fs from 'node:fs';")).toHaveLength(1);
    expect(check('electron/api/x.ts', "import { app } from 'electron';")).toHaveLength(1);
    expect(check('electron/store/x.ts', "import { buildApi } from '../api/app.js';")).toHaveLength(1);
    expect(check('electron/api/x.ts', "import { x } from '../sync/x.js';")).toHaveLength(1);
    expect(check('electron/api/x.ts', "import { x } from '../store/x.js';")).toHaveLength(0);
  });
});
