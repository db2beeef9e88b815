/**
 * Single-line text in the PDF's built-in Helvetica: what it can draw, how wide it is, cutting
 * it to a column with an ellipsis, and drawing a row of cells cheaply.
 *
 * Helvetica is one of the 14 standard PDF fonts, so nothing is downloaded or embedded, but it
 * is a WinAnsi (Windows-1252) font: it draws Latin-1 and a few extras (€ – — ‘ ’ “ ” … • ™
 * Œ œ Š š Ž ž Ÿ ƒ ˆ ˜ ‰ ‹ › † ‡) and nothing else. `drawable()` maps any other character to
 * its unaccented Latin letters when Unicode decomposes it that way (ő → o, ź → z, ﬁ → fi) or
 * to a small table (Ł → L, ‐ → -), and otherwise to `?` (東京 → ??, Ω → ?). Line breaks and
 * tabs become spaces, other control characters are dropped. Showing any script would mean
 * embedding a large Unicode font; the CSV and XLSX files keep every character.
 *
 * Speed: pdfkit's `doc.text()` costs about 15 µs a call (line wrapping, kerning, a graphics
 * state per call), which for 100,000 lines of 10 cells is 15 s. So each row is written as one
 * text object with `doc.addContent()`, and widths come from a table of glyph widths taken once
 * from pdfkit's own `widthOfString()` (the text is drawn unkerned, so the sums are exact).
 * This leans on two pdfkit internals, `doc._font` (the current font's resource id) and
 * `doc.page.fonts` (the page's font resources); `PdfFace` checks they are there and fails
 * loudly if a pdfkit upgrade moved them.
 */

/** Unicode code points beyond Latin-1 that WinAnsi has, with their byte. */
const winAnsiExtras = new Map<number, number>([
  [0x20ac, 0x80],
  [0x201a, 0x82],
  [0x0192, 0x83],
  [0x201e, 0x84],
  [0x2026, 0x85],
  [0x2020, 0x86],
  [0x2021, 0x87],
  [0x02c6, 0x88],
  [0x2030, 0x89],
  [0x0160, 0x8a],
  [0x2039, 0x8b],
  [0x0152, 0x8c],
  [0x017d, 0x8e],
  [0x2018, 0x91],
  [0x2019, 0x92],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x2022, 0x95],
  [0x2013, 0x96],
  [0x2014, 0x97],
  [0x02dc, 0x98],
  [0x2122, 0x99],
  [0x0161, 0x9a],
  [0x203a, 0x9b],
  [0x0153, 0x9c],
  [0x017e, 0x9e],
  [0x0178, 0x9f],
]);

/** Letters Unicode does not decompose into a base letter, and look-alike punctuation. */
const transliterations: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  Ŧ: 'T',
  ŧ: 't',
  Ŋ: 'N',
  ŋ: 'n',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
};

const byteOf = (code: number): number | undefined => {
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return winAnsiExtras.get(code);
};

const allDrawable = /^[\x20-\x7e\xa0-\xff]*$/;

/** The text with every character Helvetica cannot draw replaced (see the file head). */
export function drawable(text: string): string {
  if (allDrawable.test(text)) return text;
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (byteOf(code) !== undefined) out += char;
    else if (char === '\n' || char === '\r' || char === '\t') out += ' ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else out += transliterate(char);
  }
  return out;
}

function transliterate(char: string): string {
  const known = transliterations[char];
  if (known) return known;
  const bare = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (bare && [...bare].every((c) => byteOf(c.codePointAt(0)!) !== undefined)) return bare;
  return '?';
}

const plainLiteral = /^[\x20-\x27\x2a-\x5b\x5d-\x7e\xa0-\xff]*$/;

/** A drawable text as a PDF literal string in WinAnsi bytes (one char a byte), `(` … `)` escaped. */
function literal(text: string): string {
  if (plainLiteral.test(text)) return `(${text})`;
  let out = '(';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x28 || code === 0x29 || code === 0x5c) out += '\\' + text[i];
    else out += code <= 0xff ? text[i] : String.fromCharCode(winAnsiExtras.get(code) ?? 0x3f);
  }
  return out + ')';
}

const ellipsis = '…';

/** One of Helvetica's faces in a document: widths, fitting, and the id to draw it with. */
export class PdfFace {
  readonly #doc: PDFKit.PDFDocument;
  readonly #font: { id: string; ref(): unknown; ascender: number };
  /** Advance widths at 1 pt, by UTF-16 code unit (all drawable characters are in the BMP). */
  readonly #widths = new Float64Array(0x2200);

  constructor(doc: PDFKit.PDFDocument, name: 'Helvetica' | 'Helvetica-Bold') {
    this.#doc = doc;
    doc.font(name).fontSize(1000);
    // pdfkit's current font object is not in its types; its shape is checked right below.
    const font = (doc as any)._font;
    if (!font || typeof font.id !== 'string' || typeof font.ref !== 'function' || typeof font.ascender !== 'number') {
      throw new Error('pdfkit internals changed: doc._font has no id/ref/ascender (see pdf-text.ts)');
    }
    this.#font = font;
    for (let code = 0x20; code < this.#widths.length; code++) {
      if (byteOf(code) !== undefined) this.#widths[code] = doc.widthOfString(String.fromCharCode(code)) / 1000;
    }
  }

  /** Width of a drawable text at `size` pt. */
  width(text: string, size: number): number {
    let width = 0;
    for (let i = 0; i < text.length; i++) width += this.#widths[text.charCodeAt(i)] ?? 0;
    return width * size;
  }

  /** The drawable text, cut with an ellipsis when wider than `maxWidth` at `size` pt. */
  fit(text: string, size: number, maxWidth: number): string {
    const clean = drawable(text);
    if (this.width(clean, size) <= maxWidth) return clean;
    const room = maxWidth / size - (this.#widths[ellipsis.charCodeAt(0)] ?? 0);
    let width = 0;
    let end = 0;
    while (end < clean.length) {
      width += this.#widths[clean.charCodeAt(end)] ?? 0;
      if (width > room) break;
      end++;
    }
    return clean.slice(0, end).trimEnd() + ellipsis;
  }

  /** Distance from the top of a line of text to its baseline. */
  ascent(size: number): number {
    return (this.#font.ascender / 1000) * size;
  }

  /**
   * Draws texts on one line: each `[x, text]` starts at x (pt from the left), the line's top
   * at y (pt from the top). Texts must be drawable (`fit` or `drawable` output).
   */
  drawLine(y: number, size: number, cells: readonly (readonly [number, string])[], color?: readonly [number, number, number]): void {
    const page = this.#doc.page;
    page.fonts[this.#font.id] ??= this.#font.ref();
    // pdfkit's page space runs top-down (it flips the y axis once per page); a text matrix
    // with d = -1 flips the glyphs back upright, so no graphics state is needed per row.
    // After the first cell, `Td` moves right from where the previous cell started.
    const baseline = round(y + this.ascent(size));
    let ops = `${color ? `q ${color.join(' ')} rg ` : ''}BT /${this.#font.id} ${size} Tf`;
    let previous: number | null = null;
    for (const [x, text] of cells) {
      if (!text) continue;
      ops += previous === null ? ` 1 0 0 -1 ${round(x)} ${baseline} Tm ` : ` ${round(x - previous)} 0 Td `;
      ops += `${literal(text)}Tj`;
      previous = x;
    }
    // Bytes, not a string: pdfkit turns a string into bytes one char at a time.
    this.#doc.addContent(Buffer.from(`${ops} ET${color ? ' Q' : ''}\n`, 'latin1'));
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
