import { describe, expect, it } from 'vitest';
import { base64FromBytes, bytesFromBase64 } from '../../renderer/components/base64.js';
import { exportFileFrom, fileNameFrom } from '../../renderer/views/time/export-file.js';

describe('a report file from the bridge', () => {
  it('takes the file name from Content-Disposition, keeping only the base name', () => {
    expect(fileNameFrom('attachment; filename="time-report-2026-11-01-2026-11-30.csv"')).toBe('time-report-2026-11-01-2026-11-30.csv');
    expect(fileNameFrom("attachment; filename*=UTF-8''uren%20november.xlsx")).toBe('uren november.xlsx');
    expect(fileNameFrom('attachment; filename=report.pdf')).toBe('report.pdf');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameFrom(undefined)).toBeNull();
    expect(fileNameFrom('attachment')).toBeNull();
  });

  it('encodes a CSV that arrives as text as UTF-8', () => {
    const file = exportFileFrom(
      { status: 200, headers: { 'content-disposition': 'attachment; filename="a.csv"' }, body: 'Naam,Uren\r\nLassen ë,1.50\r\n' },
      'csv',
      'fallback.csv',
    );
    expect(file.name).toBe('a.csv');
    expect(file.contentType).toBe('text/csv');
    expect(new TextDecoder().decode(bytesFromBase64(file.data))).toBe('Naam,Uren\r\nLassen ë,1.50\r\n');
  });

  it('keeps an XLSX or PDF that arrives as base64 as it is', () => {
    const body = { encoding: 'base64', contentType: 'application/pdf', data: base64FromBytes(new Uint8Array([37, 80, 68, 70])) };
    const file = exportFileFrom({ status: 200, headers: {}, body }, 'pdf', 'time-report.pdf');
    expect(file).toEqual({ name: 'time-report.pdf', contentType: 'application/pdf', data: body.data });
  });

  it('round-trips large binary content through base64', () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);
    expect(bytesFromBase64(base64FromBytes(bytes))).toEqual(bytes);
  });

  it('refuses a body it cannot save', () => {
    expect(() => exportFileFrom({ status: 200, headers: {}, body: { total_minutes: 3 } }, 'csv', 'x.csv')).toThrow();
  });
});
