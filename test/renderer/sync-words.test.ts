import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import { plainSyncProblem, recordName, refusalReasons } from '../../renderer/views/sync/sync-words.js';

const t = createTranslate(catalogues, 'en');

describe('sync problems in plain words', () => {
  it('says an unreachable remote is a wait, not a loss', () => {
    for (const problem of [
      'the remote could not be reached (fetch failed)',
      'connect ECONNREFUSED 127.0.0.1:4010',
      'The operation timed out',
    ]) {
      expect(plainSyncProblem(problem, t), problem).toContain('cannot be reached right now');
    }
  });

  it('tells a refused key from an expired sign-in', () => {
    expect(plainSyncProblem('Not Logged In', t)).toContain('did not accept the API key');
    expect(plainSyncProblem('the sign-in to the remote has expired; sign in again', t)).toContain('Sign in again');
    expect(plainSyncProblem('no remote is set up', t)).toContain('No remote is set up');
  });

  it('says a remote that limits the app is waited out, never a sign-in to make again', () => {
    const problem =
      'the remote is rate limiting this app (429) while refreshing its sign-in; it tries again in 42 s (Too many refused token requests. Try again in 42 s.)';
    expect(plainSyncProblem(problem, t)).toContain('asks this app to wait');
    expect(plainSyncProblem(problem, t)).not.toContain('Sign in again');
  });

  it('passes anything else on as the remote said it', () => {
    expect(plainSyncProblem('disk full', t)).toBe('The remote reported a problem: disk full');
  });
});

describe('why a change was refused', () => {
  it('gives each problem of the API error body, with its field', () => {
    const error = {
      reference: 'r',
      errors: [
        { code: 10423, message: 'Unprocessable entity', description: 'Duplicate entry', field: 'external_ref' },
        { message: 'Conflict' },
      ],
    };
    expect(refusalReasons(error, t)).toEqual(['External reference: Duplicate entry', 'Conflict']);
  });

  it('names the field by its label where the description starts with its API name', () => {
    expect(refusalReasons({ errors: [{ description: 'name is required', field: 'name' }] }, t)).toEqual(['Name is required']);
  });

  it('words a broken rule of any record by the field’s label, as a form would', () => {
    const error = { errors: [{ description: 'Duplicate entry', field: 'external_ref', rule: 'unique' }] };
    expect(refusalReasons(error, t, 'project')).toEqual(['External reference is already used by another record']);
  });

  it('writes days in a reason as the app does, not as ISO dates', () => {
    const error = {
      errors: [{ description: 'Collection "SO-1003" was planned on the server meanwhile (2 cards, from 2026-12-07 to 2026-12-08)' }],
    };
    expect(refusalReasons(error, t)).toEqual([
      'Collection "SO-1003" was planned on the server meanwhile (2 cards, from Mon, 7 Dec 2026 to Tue, 8 Dec 2026)',
    ]);
  });

  it('says so when there is no reason', () => {
    expect(refusalReasons(null, t)).toEqual(['The remote gave no reason.']);
    expect(refusalReasons({ errors: [] }, t)).toEqual(['The remote gave no reason.']);
  });

  it('names a record by its name, code or description', () => {
    expect(recordName({ name: 'Alpha', code: 'A' })).toBe('Alpha');
    expect(recordName({ description: 'Welding' })).toBe('Welding');
    expect(recordName({ id: 'x' })).toBeNull();
    expect(recordName(null)).toBeNull();
  });
});
