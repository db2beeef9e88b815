import { describe, expect, it } from 'vitest';
import { bytesFromBase64 } from '../../renderer/components/base64.js';
import { blobOf } from '../../renderer/views/card/card-api.js';
import { contentTypeOf, formatBytes } from '../../renderer/views/card/attachment-files.js';

describe('attachment files', () => {
  it('sends the bare media type, and octet-stream for what the browser does not know', () => {
    expect(contentTypeOf('application/pdf')).toBe('application/pdf');
    expect(contentTypeOf('text/plain; charset=utf-8')).toBe('text/plain');
    expect(contentTypeOf('')).toBe('application/octet-stream');
    expect(contentTypeOf('not a type')).toBe('application/octet-stream');
  });

  it('turns each form a download arrives in back into the file', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const binary = blobOf({ encoding: 'base64', contentType: 'application/octet-stream', data: 'AAEC+v8=' }, 'application/x-fallback');
    expect(new Uint8Array(await binary.arrayBuffer())).toEqual(bytes);
    expect(binary.type).toBe('application/octet-stream');
    expect(await blobOf('héllo\n', 'text/plain').text()).toBe('héllo\n');
    expect(JSON.parse(await blobOf({ a: [1] }, 'application/json').text())).toEqual({ a: [1] });
    expect(bytesFromBase64('AAEC+v8=')).toEqual(bytes);
  });

  it('shows sizes in readable units, with the decimal sign of the planner’s language', () => {
    expect(formatBytes(0, 'en-GB')).toBe('0 B');
    expect(formatBytes(1536, 'en-GB')).toBe('1.5 KB');
    expect(formatBytes(3_400_000, 'en-GB')).toBe('3.2 MB');
    expect(formatBytes(5_000 * 1024 ** 3, 'en-GB')).toBe('5000 GB');
    expect(formatBytes(null, 'en-GB')).toBe('');
    expect(formatBytes(1536, 'nl-NL')).toBe('1,5 KB');
  });
});
