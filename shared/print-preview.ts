/**
 * The printed plan's pages as positions, the answer of `GET /v1/board/{id}/print?format=json`
 * (docs/API.md "Printing the plan"): what the PDF draws, for a preview to draw to scale. All
 * lengths are PDF points on a page of `page.width` × `page.height`.
 */
export interface PrintPreviewCard {
  id: string;
  name: string;
  /** The name as the PDF wraps it, one entry a line, then the details (what for, how long, who). */
  lines: string[];
  /** How many of `lines` are the name. */
  nameLines: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PrintPreviewStage {
  id: string;
  name: string;
  /** The stage began on an earlier page. */
  continued: boolean;
  y: number;
  height: number;
  cards: PrintPreviewCard[];
}

export interface PrintPreviewDay {
  date: string;
  label: string;
  workday: boolean;
  holiday: string | null;
}

export interface PrintPreviewPage {
  number: number;
  of: number;
  /** Each day: its label, whether the board works then, and the company holiday on it (null: none). */
  days: PrintPreviewDay[];
  /** Left edge of each day's column. */
  dayX: number[];
  dayWidth: number;
  stages: PrintPreviewStage[];
}

export interface PrintPreview {
  board: string;
  scope: string;
  start: string;
  end: string;
  page: { width: number; height: number };
  /** The table: its left edge, top, where the rows start, width and the stage column's width. */
  table: { left: number; top: number; bodyTop: number; width: number; stageColumn: number };
  pages: PrintPreviewPage[];
}
