/**
 * How wide a card's title is drawn, measured on a canvas in the page's own font (docs/
 * architecture.md "Renderer"): a guess per character was right for one font and wrong for the
 * next (Debian's DejaVu Sans is a fifth wider than Segoe UI), and a card's title must fit
 * whole. Each text is measured once per face; a card is rendered only while in view.
 */
import { cardFaces, type CardFace } from './plan-card.js';

let context: CanvasRenderingContext2D | null | undefined;
const measured = new Map<string, number>();

function canvas(): CanvasRenderingContext2D | null {
  if (context === undefined) {
    context = document.createElement('canvas').getContext('2d');
    if (context) context.font = '12px sans-serif';
  }
  return context;
}

/** The width in px of `text` drawn in a card face; a rough guess where there is no canvas. */
export function cardTextWidth(text: string, face: CardFace): number {
  const key = `${face}\u0000${text}`;
  const known = measured.get(key);
  if (known !== undefined) return known;
  const drawing = canvas();
  const { weight, size } = cardFaces[face];
  let width = text.length * size * 0.62;
  if (drawing) {
    drawing.font = `${weight} ${size}px ${getComputedStyle(document.body).fontFamily}`;
    width = drawing.measureText(text).width;
  }
  // Titles repeat from render to render; a board's worth of them is a few thousand entries.
  if (measured.size > 20_000) measured.clear();
  measured.set(key, width);
  return width;
}
