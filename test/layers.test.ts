/**
 * The layer rules of docs/architecture.md "Layers", checked on every import in the tree: relative
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
const backendPackages = ['better-sqlite3', 'fastify', 'jose', '@fastify/', 'pg'];

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

const importPattern =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

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
      if (from !== 'main' && from !== 'preload' && from !== 'test')
        problems.push(`${where}: only electron/main and electron/preload import electron`);
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

/**
 * Inside the API core, imports run one way (docs/architecture.md "API sub-layers"): route plugins → resource
 * modules → domain services (planning, time tracking) → the generic core (records, write plan,
 * registry, table handles). A route file is named for it: `routes.ts`, `*-routes.ts`, `*-route.ts`.
 */
type ApiPart = 'route' | 'resource' | 'domain' | 'generic' | 'other';

const apiMayNotImport: Record<ApiPart, readonly ApiPart[]> = {
  route: [],
  resource: ['route'],
  domain: ['route', 'resource'],
  generic: ['route', 'resource', 'domain'],
  other: [],
};

function apiPartOf(file: string): ApiPart | undefined {
  const path = relative(root, file).split('\\').join('/');
  if (!path.startsWith('electron/api/')) return undefined;
  if (path === 'electron/api/app.ts' || /(^|[/-])routes?\.ts$/.test(path)) return 'route';
  if (path.startsWith('electron/api/resources/')) return 'resource';
  if (/^electron\/api\/(planning|time-tracking)\//.test(path)) return 'domain';
  if (/^electron\/api\/(records|write-plan|registry|tables)\.ts$/.test(path)) return 'generic';
  return 'other';
}

const staticImport = /^\s*(?:import|export)\s+(?!type\b)([^'";]*?)from\s*['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

/**
 * The imports that run when the file loads: `import type …` and `import { type A, type B } …`
 * are erased by the compiler. The API sub-layers rule reads these (a domain service may name a
 * route file's type); the cycle check reads every import (`importsOf`).
 */
export function runtimeImportsOf(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(staticImport)) {
    if (m[3] !== undefined) {
      found.push(m[3]);
      continue;
    }
    const list = /^\s*\{([^}]*)\}\s*$/.exec(m[1]!);
    const names = list
      ? list[1]!
          .split(',')
          .map((n) => n.trim())
          .filter(Boolean)
      : [];
    if (list && names.every((n) => n.startsWith('type '))) continue;
    found.push(m[2]!);
  }
  return found;
}

function apiProblemsOf(file: string, source: string): string[] {
  const from = apiPartOf(file);
  if (!from) return [];
  return runtimeImportsOf(source)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => {
      const to = apiPartOf(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
      return to && apiMayNotImport[from].includes(to)
        ? [`${relative(root, file)} imports ${specifier}: an API ${from} file may not import a ${to} file`]
        : [];
    });
}

const environmentStoreFile = join(root, 'electron/store/environment-store');

/**
 * The store boundary (docs/architecture.md "The asynchronous store boundary"): the API and the
 * sync modules work on the asynchronous RecordStore, never on the synchronous EnvironmentStore.
 * Neither imports anything from environment-store, not even a type: what they name of a write
 * is in changes.ts, a record's types in shared/fields.ts.
 */
export function boundaryProblemsOf(file: string, source: string): string[] {
  const path = relative(root, file).split('\\').join('/');
  const sync = path.startsWith('electron/sync/');
  if (!sync && !path.startsWith('electron/api/')) return [];
  const named = (specifier: string) =>
    specifier.startsWith('.') && resolve(dirname(file), specifier).replace(/\.m?js$/, '') === environmentStoreFile;
  const past = new Set(importsOf(source).filter(named));
  return [...past].map((specifier) => `${path} imports ${specifier}: ${sync ? 'a sync module' : 'the API'} works on the RecordStore`);
}

/**
 * The source file a relative specifier names, among `sources`: a `.js` (`.mjs`) specifier names the
 * `.ts` or `.tsx` (`.mts`) file the compiler reads, a folder its `index.ts` or `index.tsx`.
 */
function resolveSource(from: string, specifier: string, sources: ReadonlyMap<string, unknown>): string | undefined {
  const named = resolve(dirname(from), specifier);
  const base = named.replace(/\.m?js$/, '');
  return [named, `${base}.ts`, `${base}.tsx`, `${base}.mts`, join(named, 'index.ts'), join(named, 'index.tsx')].find((candidate) =>
    sources.has(candidate),
  );
}

/**
 * File → the files it imports, among `sources`: every relative import, `import type`, `export … from`
 * and `import()` (in code or in a type) included. A type-only import is erased at build time, but it
 * still ties the two files together: neither can be read, moved or split without the other.
 */
function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = importsOf(source)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveSource(file, specifier, sources))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('layer rules (docs/architecture.md "Layers")', () => {
  const files = ['shared', 'renderer', 'electron'].flatMap((dir) => sourceFiles(join(root, dir)));

  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('has no import that crosses a layer the wrong way', () => {
    expect(files.flatMap(problemsOf)).toEqual([]);
  });

  it('keeps the API and the sync modules on the asynchronous store boundary', () => {
    expect(files.flatMap((file) => boundaryProblemsOf(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('catches an import past the store boundary when one is there', () => {
    const at = (path: string) => join(root, path);
    const store = "import type { EnvironmentStore } from '../store/environment-store.js';";
    expect(boundaryProblemsOf(at('electron/sync/x.ts'), store)).toHaveLength(1);
    expect(boundaryProblemsOf(at('electron/sync/x.ts'), "import type { StoredRecord } from '../store/environment-store.js';")).toHaveLength(
      1,
    );
    expect(boundaryProblemsOf(at('electron/api/x/y.ts'), store.replace('../', '../../'))).toHaveLength(1);
    expect(boundaryProblemsOf(at('electron/api/x.ts'), "import { EnvironmentStore } from '../store/environment-store.js';")).toHaveLength(
      1,
    );
    expect(boundaryProblemsOf(at('electron/api/x.ts'), "import type { StoredRecord } from '../store/environment-store.js';")).toHaveLength(
      1,
    );
    expect(boundaryProblemsOf(at('electron/host/x.ts'), store)).toHaveLength(0);
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

  it('keeps the API core layered: routes → resource modules → domain services → generic core', () => {
    expect(files.filter((file) => apiPartOf(file)).flatMap((file) => apiProblemsOf(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('catches an API import that runs up the layers', () => {
    const check = (path: string, source: string) => apiProblemsOf(join(root, path), source);
    expect(check('electron/api/planning/x.ts', "import { cardModule } from '../resources/card.js';")).toHaveLength(1);
    expect(check('electron/api/time-tracking/x.ts', "import { registerPlanRoutes } from '../planning/plan-routes.js';")).toHaveLength(1);
    expect(check('electron/api/resources/x.ts', "import { registerTimeTrackingRoutes } from '../time-tracking/routes.js';")).toHaveLength(
      1,
    );
    expect(check('electron/api/records.ts', "import { planCollection } from './planning/plan-collection.js';")).toHaveLength(1);
    expect(check('electron/api/planning/x-routes.ts', "import { cardModule } from '../resources/card.js';")).toHaveLength(0);
    expect(
      check('electron/api/planning/x.ts', "import type { SplitRequest } from './split-card.js';\nimport { tables } from '../tables.js';"),
    ).toHaveLength(0);
  });

  it('has no import cycle in shared/, renderer/ or electron/, type-only imports included', () => {
    const graph = importGraph(new Map(files.map((file) => [file, readFileSync(file, 'utf8')])));
    expect(
      ['shared', 'renderer', 'electron'].every((dir) => [...graph.keys()].some((file) => relative(root, file).startsWith(`${dir}/`))),
    ).toBe(true);
    const cycles = cyclesOf(graph).map((cycle) => cycle.map((file) => relative(root, file).split('\\').join('/')));
    expect(cycles, `import cycles, each a set of files that import one another:\n${cycles.map((c) => c.join(' ⇄ ')).join('\n')}`).toEqual(
      [],
    );
  });

  it('catches an import cycle when one is there, type-only and dynamic imports included', () => {
    const at = (path: string) => join(root, path);
    const named = (cycles: string[][]) => cycles.map((cycle) => cycle.map((file) => relative(root, file).split('\\').join('/')));
    const sources = new Map([
      [at('electron/api/a.ts'), "import { b } from './b.js';\nexport const a = 1;"],
      [at('electron/api/b.ts'), "import {\n  c,\n} from './c/index.js';\nexport const b = c;"],
      [at('electron/api/c/index.ts'), "import { a } from '../a.js';\nexport const c = a;"],
      [at('electron/api/d.ts'), "import type { E } from './e.js';\nexport type D = E;"],
      [at('electron/api/e.ts'), "import { type D } from './d.js';\nexport type E = D;"],
      [at('electron/api/f.tsx'), "export type { G } from './g.js';"],
      [at('electron/api/g.ts'), "export type G = import('./f.js').F;"],
      [at('electron/api/h.ts'), "export * from './i';"],
      [at('electron/api/i/index.ts'), "export const load = () => import('../h.js');"],
      [at('electron/api/j.ts'), "import { a } from './a.js';\nexport const j = a;"],
    ]);
    expect(named(cyclesOf(importGraph(sources))).sort()).toEqual([
      ['electron/api/a.ts', 'electron/api/b.ts', 'electron/api/c/index.ts'],
      ['electron/api/d.ts', 'electron/api/e.ts'],
      ['electron/api/f.tsx', 'electron/api/g.ts'],
      ['electron/api/h.ts', 'electron/api/i/index.ts'],
    ]);
    // Without those imports back, nothing leads round: no cycle.
    sources.set(at('electron/api/c/index.ts'), 'export const c = 1;');
    sources.set(at('electron/api/e.ts'), 'export type E = number;');
    sources.set(at('electron/api/g.ts'), 'export type G = number;');
    sources.set(at('electron/api/i/index.ts'), 'export const load = () => 1;');
    expect(named(cyclesOf(importGraph(sources)))).toEqual([]);
  });
});
