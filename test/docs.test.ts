/**
 * What the code cites of the docs is there: every `docs/architecture.md "Heading"` in electron/,
 * renderer/, shared/, test/, scripts/ (and the root's config files and docs) names a heading of
 * docs/architecture.md, every `docs/decisions/<file>.md` names a file, every relative link of the
 * architecture and the decisions lands on a file, and the architecture stays short enough to read
 * in an hour (docs/architecture.md, docs/decisions/README.md).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const architecturePath = join(root, 'docs/architecture.md');
const decisionsDir = join(root, 'docs/decisions');

/** At most this many lines: a newcomer reads the architecture in an hour. */
export const maxArchitectureLines = 450;

const citingFolders = ['electron', 'renderer', 'shared', 'test', 'scripts'];
const citingExtensions = /\.(ts|tsx|mts|js|mjs|md)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    return statSync(path).isDirectory() ? filesUnder(path) : citingExtensions.test(name) ? [path] : [];
  });
}

/**
 * Every file that may cite the docs: the folders above, the root's own files, and docs/. Not this
 * file, whose checks of the checker cite sections that are not there on purpose.
 */
function citingFiles(): string[] {
  const rootFiles = readdirSync(root)
    .filter((name) => citingExtensions.test(name))
    .map((name) => join(root, name));
  return [...citingFolders.flatMap((folder) => filesUnder(join(root, folder))), ...rootFiles, ...filesUnder(join(root, 'docs'))].filter(
    (path) => path !== import.meta.filename,
  );
}

/** The text of every heading of a markdown page, outside fenced code. */
export function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) headings.add(heading[1]!);
  }
  return headings;
}

/**
 * The sections a text cites as `docs/architecture.md "A", "B"`. A comment's line breaks and the
 * `*` or `//` that start its next line are read as one space, so a citation that wraps is read whole.
 */
export function architectureCitations(text: string): string[] {
  const joined = text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
  return [...joined.matchAll(/docs\/architecture\.md,? ("[^"]+"(?:, "[^"]+")*)/g)].flatMap((m) =>
    [...m[1]!.matchAll(/"([^"]+)"/g)].map((name) => name[1]!),
  );
}

/** The decision files a text cites as `docs/decisions/<file>.md`. */
export function decisionCitations(text: string): string[] {
  return [...text.matchAll(/docs\/decisions\/([A-Za-z0-9._-]+\.md)/g)].map((m) => m[1]!);
}

/** The targets of a markdown page's relative links, without their `#anchor`. */
export function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

/** Each citation in `files` (path → text) that names no heading in `headings` or no file in `decisionFiles`. */
export function brokenCitations(
  files: ReadonlyMap<string, string>,
  headings: ReadonlySet<string>,
  decisionFiles: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  for (const [path, text] of files) {
    for (const name of architectureCitations(text)) {
      if (!headings.has(name)) problems.push(`${path}: docs/architecture.md "${name}" is no heading of docs/architecture.md`);
    }
    for (const file of decisionCitations(text)) {
      if (!decisionFiles.has(file)) problems.push(`${path}: docs/decisions/${file} does not exist`);
    }
  }
  return problems;
}

/** The number of lines of a text, as `wc -l` counts them for a file that ends with a newline. */
export function lineCount(text: string): number {
  const lines = text.split('\n');
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

describe('the checker of citations', () => {
  it('reads a citation that wraps onto the next comment line, with every section it names', () => {
    const comment = [
      '/**',
      ' * Rate limits (docs/architecture.md "Team',
      ' * server on PostgreSQL", "Shared state"): one count.',
      ' */',
    ].join('\n');
    expect(architectureCitations(comment)).toEqual(['Team server on PostgreSQL', 'Shared state']);
    expect(architectureCitations('// loaded late (docs/architecture.md, "Time tracking rules").')).toEqual(['Time tracking rules']);
    expect(architectureCitations('docs/API.md "Sync", docs/architecture.md "Push": one')).toEqual(['Push']);
  });

  it('reports a section that is no heading and a decision file that is not there, and nothing else', () => {
    const files = new Map([
      ['a.ts', '// see docs/architecture.md "Sync", "Moving the API onto the boundary"'],
      ['b.ts', '// see docs/decisions/initial-sync.md and docs/decisions/gone.md'],
    ]);
    expect(brokenCitations(files, headingsOf('# Architecture\n\n## Sync\n'), new Set(['initial-sync.md']))).toEqual([
      'a.ts: docs/architecture.md "Moving the API onto the boundary" is no heading of docs/architecture.md',
      'b.ts: docs/decisions/gone.md does not exist',
    ]);
  });

  it('takes headings outside code only, and links that are relative only', () => {
    expect([...headingsOf('## Push\n```sh\n# not a heading\n```\n### Live channel\n')]).toEqual(['Push', 'Live channel']);
    expect(relativeLinks('[a](decisions/x.md#why), [b](https://example.com), [c](../API.md)')).toEqual(['decisions/x.md', '../API.md']);
    expect(lineCount('one\ntwo\n')).toBe(2);
  });
});

describe('the docs that code cites (docs/architecture.md, docs/decisions/)', () => {
  const architecture = readFileSync(architecturePath, 'utf8');
  const decisionFiles = new Set(readdirSync(decisionsDir).filter((name) => name.endsWith('.md')));

  it(`keeps docs/architecture.md at ${maxArchitectureLines} lines at most`, () => {
    expect(lineCount(architecture)).toBeLessThanOrEqual(maxArchitectureLines);
  });

  it('has every section and decision file that a comment or a doc cites', () => {
    const files = new Map(citingFiles().map((path) => [relative(root, path), readFileSync(path, 'utf8')]));
    expect(brokenCitations(files, headingsOf(architecture), decisionFiles)).toEqual([]);
  });

  it('links from the architecture and the decisions only to files that exist', () => {
    const pages = [architecturePath, ...[...decisionFiles].map((name) => join(decisionsDir, name))];
    const broken = pages.flatMap((page) =>
      relativeLinks(readFileSync(page, 'utf8'))
        .filter((target) => !existsSync(resolve(dirname(page), target)))
        .map((target) => `${relative(root, page)}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('lists every decision file in the index of docs/decisions/README.md', () => {
    const listed = new Set(relativeLinks(readFileSync(join(decisionsDir, 'README.md'), 'utf8')));
    expect([...decisionFiles].filter((name) => name !== 'README.md' && !listed.has(name))).toEqual([]);
  });
});
