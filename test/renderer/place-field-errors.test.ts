import { describe, expect, it } from 'vitest';
import { ApiRequestError, placeFieldErrors } from '../../renderer/api/request-error.js';

function unprocessable(...items: { field?: string; description: string }[]) {
  return new ApiRequestError(422, {
    reference: 'ref-1',
    errors: items.map((item) => ({ code: 10422, message: 'Unprocessable Content', ...item })),
  });
}

describe('placing 422 problems beside inputs', () => {
  it('puts a problem beside the input with its path, naming only the last part', () => {
    const error = unprocessable(
      { field: 'name', description: 'name is required' },
      { field: 'stages.1.name', description: 'stages.1.name is required' },
    );
    expect(placeFieldErrors(error, ['name', 'stages.1.name'])).toEqual({
      byInput: { name: 'name is required', 'stages.1.name': 'name is required' },
      elsewhere: [],
    });
  });

  it('puts a problem deeper than any input beside the nearest input above it', () => {
    const error = unprocessable({ field: 'stages.0.activities.1.id', description: 'stages.0.activities.1.id names no Activity' });
    expect(placeFieldErrors(error, ['stages', 'stages.0.activities']).byInput).toEqual({
      'stages.0.activities': 'id names no Activity',
    });
  });

  it('shows what no input shows above the form, with its field, so nothing vanishes', () => {
    const error = unprocessable({ field: 'external_ref', description: 'Duplicate entry' }, { description: 'Too many stages' });
    expect(placeFieldErrors(error, ['name'])).toEqual({
      byInput: {},
      elsewhere: ['external_ref: Duplicate entry', 'Too many stages'],
    });
  });

  it('joins two problems of one input', () => {
    const error = unprocessable({ field: 'name', description: 'name is too long' }, { field: 'name', description: 'name is taken' });
    expect(placeFieldErrors(error, ['name']).byInput.name).toBe('name is too long name is taken');
  });

  it('shows a failure that is not about fields above the form, and nothing when there is no failure', () => {
    expect(placeFieldErrors(new Error('The host is gone.'), ['name'])).toEqual({ byInput: {}, elsewhere: ['The host is gone.'] });
    expect(placeFieldErrors(null, ['name'])).toEqual({ byInput: {}, elsewhere: [] });
  });
});
