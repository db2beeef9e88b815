/**
 * Big answers written in parts (docs/API.md "Relations"). One `JSON.stringify` of an answer
 * that embeds tens of thousands of records holds the event loop for as long as it takes, and
 * every other request waits. An answer that holds more than `writtenInPartsAbove` records is
 * written as a stream of JSON text instead, a batch of records at a time, with a turn for other
 * requests between batches; it stops when the answer is no longer wanted (AnswerWork).
 *
 * The text is exactly what `JSON.stringify` makes of the answer. Records known to embed nothing
 * (`markWhole`) are written by `JSON.stringify` whole; everything else is walked: arrays item by
 * item, objects key by key.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AnswerWork } from './answer-work.js';

/** Answers that hold more records than this (its own and those it embeds) are written in parts. */
export const writtenInPartsAbove = 2_000;

/** Work between two turns: about this long, looked at every `stepsPerLook` values written. */
const sliceMs = 3;
const stepsPerLook = 64;
/** Text handed to the socket at a time. */
const charactersPerChunk = 64 * 1024;

const wholeRecords = new WeakSet<object>();

/** Marks a presented record that embeds no other record: it is written in one piece. */
export function markWhole(record: object): void {
  wholeRecords.add(record);
}

export function isWhole(value: unknown): boolean {
  return typeof value === 'object' && value !== null && wholeRecords.has(value);
}

type Frame =
  { items: readonly unknown[]; next: number } | { object: Record<string, unknown>; keys: string[]; next: number; written: boolean };

/** What JSON.stringify writes for a value inside an array (undefined, a function or a symbol is null there). */
function inArray(value: unknown): unknown {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol' ? null : value;
}

/** Whether JSON.stringify leaves an object's property out. */
function leftOut(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Whether the walk opens the value (array, or an object that is no whole record and has no toJSON of its own). */
function opens(value: unknown): value is readonly unknown[] | Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  // An object, as checked above: reading a property it may lack is safe.
  return !wholeRecords.has(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * The JSON text of `value` in chunks, with a turn of the event loop (`work.turn()`) after every
 * few milliseconds of work; it throws when the answer is no longer wanted.
 */
export async function* jsonInParts(value: unknown, work: AnswerWork): AsyncGenerator<string> {
  const parts: string[] = [];
  let size = 0;
  let steps = 0;
  let sliceStart = performance.now();
  const stack: Frame[] = [];
  const write = (text: string) => {
    parts.push(text);
    size += text.length;
  };
  const begin = (item: unknown) => {
    if (!opens(item)) {
      write(JSON.stringify(item));
    } else if (Array.isArray(item)) {
      write('[');
      stack.push({ items: item, next: 0 });
    } else {
      write('{');
      // Neither an array nor a value JSON writes whole (opens): a plain object.
      stack.push({ object: item as Record<string, unknown>, keys: Object.keys(item), next: 0, written: false });
    }
  };
  begin(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if ('items' in top) {
      if (top.next === top.items.length) {
        write(']');
        stack.pop();
      } else {
        if (top.next > 0) write(',');
        begin(inArray(top.items[top.next++]));
      }
    } else if (top.next === top.keys.length) {
      write('}');
      stack.pop();
    } else {
      const key = top.keys[top.next++]!;
      const item = top.object[key];
      if (!leftOut(item)) {
        write(`${top.written ? ',' : ''}${JSON.stringify(key)}:`);
        top.written = true;
        begin(item);
      }
    }
    if (size >= charactersPerChunk) {
      yield parts.join('');
      parts.length = 0;
      size = 0;
    }
    if (++steps % stepsPerLook === 0 && performance.now() - sliceStart >= sliceMs) {
      await work.turn(true);
      sliceStart = performance.now();
    }
  }
  if (size > 0) yield parts.join('');
}

/**
 * Writes every successful answer whose work counted more than `writtenInPartsAbove` records
 * in parts (see the file head). Smaller answers, and every error body, are serialized as before.
 */
export function installAnswersInParts(app: FastifyInstance, workOf: (request: FastifyRequest) => AnswerWork | undefined): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const work = workOf(request);
    if (!work || work.records <= writtenInPartsAbove || reply.statusCode >= 300) return payload;
    // The stream is the serialized answer: Fastify sends it as it is (content type JSON, set already).
    reply.serializer((stream: unknown) => stream as string);
    return Readable.from(jsonInParts(payload, work), { objectMode: false });
  });
}
