/**
 * Every `as` cast in electron/api (other than `as const`) says why it is safe, in a comment on
 * its line or on one of the two lines above (issue 19, "Typed records from the store up"): a
 * cast the types could do without is removed instead, so no new silent cast lands.
 * CASTS_UNDER=electron/api/resources limits the check to one folder while working on it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The file:line of each cast with no comment on its line or the two above. */
function uncommentedCasts(file: string, text = readFileSync(file, 'utf8')): string[] {
  const lines = text.split('\n');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      if (!isConst) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const near = [lines[line], lines[line - 1], lines[line - 2]].join('\n');
        if (!/\/\/|\/\*|^\s*\*/m.test(near)) found.push(`${relative(root, file)}:${line + 1}: ${lines[line]!.trim()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('casts in electron/api', () => {
  const under = process.env.CASTS_UNDER ?? 'electron/api';
  const files = tsFiles(join(root, under));

  it('finds the files it checks', () => {
    expect(files.length).toBeGreaterThan(under === 'electron/api' ? 50 : 0);
  });

  it('has a comment saying why next to every cast other than `as const`', () => {
    const uncommented = files.flatMap((file) => uncommentedCasts(file));
    expect(uncommented, `casts without a comment saying why:\n${uncommented.join('\n')}`).toEqual([]);
  });

  it('tells a cast with its reason from one without', () => {
    const sample = [
      'const c = width * (z as number);',
      'const a = x as string;',
      '// A stored id is text.',
      'const b = y as string;',
      'const d = q as const;',
    ].join('\n');
    expect(uncommentedCasts(join(root, 'sample.ts'), sample)).toEqual([
      'sample.ts:1: const c = width * (z as number);',
      'sample.ts:2: const a = x as string;',
    ]);
  });
});
