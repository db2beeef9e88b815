import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirFromArgs } from '../../electron/main/data-dir.js';

describe('choosing the data folder from the command line', () => {
  const exe = ['/opt/Planner/planner'];

  it('is undefined without --data-dir, so the app uses its per-user folder', () => {
    expect(dataDirFromArgs([...exe, '--enable-logging'])).toBeUndefined();
  });

  it('reads --data-dir <path>', () => {
    expect(dataDirFromArgs([...exe, '--data-dir', '/srv/plans'])).toBe(resolve('/srv/plans'));
  });

  it('reads --data-dir=<path>', () => {
    expect(dataDirFromArgs([...exe, '--data-dir=/srv/plans'])).toBe(resolve('/srv/plans'));
  });

  it('resolves a relative folder against the working directory', () => {
    expect(dataDirFromArgs([...exe, '--data-dir', 'plans'], '/home/me')).toBe(resolve('/home/me', 'plans'));
  });

  it.each([[['--data-dir']], [['--data-dir=']], [['--data-dir', '--enable-logging']]])(
    'refuses a --data-dir without a folder (%j) rather than falling back to the usual one',
    (args) => {
      expect(() => dataDirFromArgs([...exe, ...args])).toThrow(/--data-dir needs a folder/);
    },
  );
});
