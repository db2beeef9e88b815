/**
 * Expectations for the documented error body (docs/API.md "Errors"):
 * `{reference, errors: [{code, message, description, field?}]}`, never a stack trace or SQL.
 */
import { expect } from 'vitest';

const referencePattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function expectErrorBody(body: any, code: number, message: string): void {
  expect(body).toBeTypeOf('object');
  expect(body.reference).toMatch(referencePattern);
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) {
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(typeof error.description).toBe('string');
    expect(error.description.length).toBeGreaterThan(0);
  }
  expect(JSON.stringify(body)).not.toMatch(/at .*\.[jt]s:\d+|SELECT |INSERT |sqlite/i);
}

/**
 * A 400 Bad Request (code 10400) whose description names every `mention` (case-sensitive
 * substrings: the offending name, operator or position).
 */
export function expectBadRequest(res: { status: number; body: any }, ...mentions: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectErrorBody(res.body, 10400, 'Bad Request');
  const description = res.body.errors.map((e: any) => e.description).join(' | ');
  for (const mention of mentions) expect(description).toContain(mention);
}
