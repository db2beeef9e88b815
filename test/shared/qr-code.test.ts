/**
 * The QR encoder of workshop mode's pairing code (shared/qr-code.ts), read back by a reader
 * written here from the standard's layout: the format bits are a valid BCH word for level M
 * and the chosen mask, in both copies; the modules outside the function patterns are exactly
 * the standard's count for the version; every block's codewords are a Reed-Solomon codeword
 * (all syndromes zero); and the data reads back as the text, in byte mode.
 */
import { describe, expect, it } from 'vitest';
import { alignmentPositions, dataCodewords, formatBits, gfMultiply, qrCode, rawDataModules, type QrCode } from '../../shared/qr-code.js';

const eccPerBlock = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
const blockCount = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5];

/** The standard's function regions, drawn as areas (not as the encoder draws them). */
function functionMap(version: number): boolean[][] {
  const size = version * 4 + 17;
  const map = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const area = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) map[y]![x] = true;
  };
  area(0, 0, 9, 9); // finder, separator and format bits, top left
  area(size - 8, 0, 8, 9); // top right, with its format bits
  area(0, size - 8, 9, 8); // bottom left, with its format bits and the dark module
  area(6, 0, 1, size);
  area(0, 6, size, 1);
  const centres = alignmentPositions(version);
  // Every crossing of the centres, but those under the three finders.
  const underFinder = (cx: number, cy: number) => (cx < 9 || cx > size - 9) && (cy < 9 || cy > size - 9) && !(cx > 9 && cy > 9);
  for (const cx of centres) for (const cy of centres) if (!underFinder(cx, cy)) area(cx - 2, cy - 2, 5, 5);
  if (version >= 7) {
    area(size - 11, 0, 3, 6);
    area(0, size - 11, 6, 3);
  }
  return map;
}

const maskOf: Record<number, (x: number, y: number) => boolean> = {
  0: (x, y) => (x + y) % 2 === 0,
  1: (_x, y) => y % 2 === 0,
  2: (x) => x % 3 === 0,
  3: (x, y) => (x + y) % 3 === 0,
  4: (x, y) => (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0,
  5: (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  6: (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  7: (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
};

function read(code: QrCode): { text: string; syndromesZero: boolean; dataModules: number } {
  const { size, modules, version } = code;
  // Format bits, first copy: around the top-left finder.
  const first: boolean[] = [];
  for (let i = 0; i <= 5; i++) first.push(modules[i]![8]!);
  first.push(modules[7]![8]!, modules[8]![8]!, modules[8]![7]!);
  for (let i = 9; i < 15; i++) first.push(modules[8]![14 - i]!);
  const second: boolean[] = [];
  for (let i = 0; i < 8; i++) second.push(modules[8]![size - 1 - i]!);
  for (let i = 8; i < 15; i++) second.push(modules[size - 15 + i]![8]!);
  const bits = first.reduce((value, dark, i) => value | (Number(dark) << i), 0);
  expect(second).toEqual(first);
  const unmasked = bits ^ 0x5412;
  expect(unmasked >>> 13).toBe(0); // level M
  const mask = (unmasked >>> 10) & 7;
  expect(mask).toBe(code.mask);
  expect(formatBits(mask)).toBe(bits);
  expect(modules[size - 8]![8]).toBe(true);

  const fixed = functionMap(version);
  const stream: number[] = [];
  // Two columns at a time from the right edge, upward first and then turning at each edge; the
  // timing column (6) is skipped whole.
  let upward = true;
  for (let right = size - 1; right > 0; right -= 2) {
    if (right === 6) right = 5;
    for (let step = 0; step < size; step++) {
      const y = upward ? size - 1 - step : step;
      for (const x of [right, right - 1]) if (!fixed[y]![x]) stream.push(Number(modules[y]![x]! !== maskOf[mask]!(x, y)));
    }
    upward = !upward;
  }
  const dataModules = stream.length;
  const codewords: number[] = [];
  for (let i = 0; i + 8 <= stream.length; i += 8) codewords.push(stream.slice(i, i + 8).reduce((b, bit) => (b << 1) | bit, 0));

  // De-interleave into blocks: data of every block in turn (short ones end first), then the error correction.
  const blocks = blockCount[version - 1]!;
  const ecc = eccPerBlock[version - 1]!;
  const raw = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - (raw % blocks);
  const shortData = Math.floor(raw / blocks) - ecc;
  const parts: number[][] = Array.from({ length: blocks }, () => []);
  let k = 0;
  for (let i = 0; i <= shortData; i++)
    for (let j = 0; j < blocks; j++) if (i < shortData || j >= shortBlocks) parts[j]!.push(codewords[k++]!);
  for (let i = 0; i < ecc; i++) for (let j = 0; j < blocks; j++) parts[j]!.push(codewords[k++]!);
  let syndromesZero = true;
  let root = 1;
  for (let s = 0; s < ecc; s++) {
    for (const part of parts) if (part.reduce((value, c) => gfMultiply(value, root) ^ c, 0) !== 0) syndromesZero = false;
    root = gfMultiply(root, 2);
  }
  const data = parts.flatMap((part) => part.slice(0, part.length - ecc));
  expect(data).toHaveLength(dataCodewords(version));
  const bitsOf = data.flatMap((byte) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (byte >>> i) & 1));
  const take = (n: number) => bitsOf.splice(0, n).reduce((v, b) => (v << 1) | b, 0);
  expect(take(4)).toBe(0b0100);
  const length = take(version < 10 ? 8 : 16);
  const bytes = Uint8Array.from({ length }, () => take(8));
  return { text: new TextDecoder().decode(bytes), syndromesZero, dataModules };
}

describe('the QR code of a pairing address', () => {
  it.each([
    ['HELLO', 1],
    ['https://127.0.0.1:4443/pair?code=ABCD2345', 3],
    [`https://192.168.100.200:4443/pair?code=ABCD2345&fp=${'3F'.repeat(32)}`, 7],
    ['x'.repeat(150), 8],
    ['y'.repeat(180), 9],
    ['Koppelcode één: ABCD2345', 2],
  ])('encodes %s in version %i and reads back whole', (text, version) => {
    const code = qrCode(text);
    expect(code.version).toBe(version);
    expect(code.size).toBe(version * 4 + 17);
    const back = read(code);
    expect(back.dataModules).toBe(rawDataModules(version));
    expect(back.syndromesZero).toBe(true);
    expect(back.text).toBe(text);
    // The finders: a dark 7×7 ring with a dark 3×3 core, in three corners.
    for (const [x, y] of [
      [0, 0],
      [code.size - 7, 0],
      [0, code.size - 7],
    ] as const) {
      expect(code.modules[y]![x]).toBe(true);
      expect(code.modules[y + 1]![x + 1]).toBe(false);
      expect(code.modules[y + 3]![x + 3]).toBe(true);
    }
  });

  it('refuses a text longer than version 10 holds', () => {
    expect(() => qrCode('x'.repeat(214))).toThrow('do not fit');
  });
});
