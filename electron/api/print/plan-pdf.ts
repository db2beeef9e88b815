/**
 * The printed plan as a PDF (pdfkit, A4 landscape, built-in Helvetica), for the workshop
 * wall (docs/API.md "Printing the plan"). The layout is plan-layout.ts; this file only draws
 * it: a title with the board and the period, a header row of days ("Mon 2 Dec", with a company
 * holiday's name under it), the board's non-workdays and holidays shaded, a band per stage with
 * its name, each card as a framed box with its name in full (bold) and its details under it,
 * and "Page N of M".
 *
 * A plan covers at most a few weeks of one board, so the file is made in memory and sent
 * whole; the time report's streaming writer is for reports of 100,000 lines.
 */
import { pdfDocument } from '../file-libraries.js';
import { isoWeekday } from '../../../shared/dates.js';
import type { PrintPreview } from '../../../shared/print-preview.js';
import { drawable } from '../time-tracking/export/pdf-text.js';
import { layoutPlan, page, printArea, sheet, type PlanPage, type PrintCard, type PrintStage } from './plan-layout.js';

export interface PlanPrint {
  board: string;
  /** What is printed: the board, or one stage of it. */
  scope: string;
  start: string;
  end: string;
  stages: PrintStage[];
  cards: PrintCard[];
  /** Each day of the period: whether the board works then, and the company holiday on it. */
  calendar: Record<string, DayFacts>;
  /** When it was made, ISO 8601 (fixed in tests). */
  made: Date;
}

export interface DayFacts {
  workday: boolean;
  holiday: string | null;
}

/** A day nobody works on the board: shaded, as the planboard greys it. */
function closed(plan: PlanPrint, day: string): boolean {
  const facts = plan.calendar[day];
  return facts ? !facts.workday || facts.holiday !== null : isoWeekday(day) >= 6;
}

const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Mon 2 Dec", as the planboard writes a day. */
export function dayLabel(date: string): string {
  return `${weekdays[isoWeekday(date) - 1]} ${Number(date.slice(8, 10))} ${months[Number(date.slice(5, 7)) - 1]}`;
}

function periodLabel(start: string, end: string): string {
  return start === end
    ? `${dayLabel(start)} ${start.slice(0, 4)}`
    : `${dayLabel(start)} ${start.slice(0, 4)} – ${dayLabel(end)} ${end.slice(0, 4)}`;
}

const closedFill = '#ececec';
const stageFill = '#e8e8e8';
const boxFill = '#ffffff';
const ruleColor = '#888888';

export function writePlanPdf(plan: PlanPrint): Promise<Buffer> {
  const doc = new (pdfDocument())({
    size: 'A4',
    layout: 'landscape',
    margin: page.margin,
    autoFirstPage: false,
    compress: true,
    info: { Title: `Plan ${plan.board}`, Creator: 'Planner', CreationDate: plan.made },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const pages = pagesOn(doc, plan);
  for (const sheetPage of pages) drawPage(doc, plan, sheetPage, pages.length);
  doc.end();
  return done;
}

/** The pages as the PDF draws them, with names in the text the PDF can show. */
function pagesOn(doc: PDFKit.PDFDocument, plan: PlanPrint): PlanPage[] {
  const measure = (text: string, size: number, bold?: boolean) =>
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(size)
      .widthOfString(text);
  const stages = plan.stages.map((stage) => ({ ...stage, name: drawable(stage.name) }));
  const cards = plan.cards.map((card) => ({ ...card, name: drawable(card.name), details: (card.details ?? []).map(drawable) }));
  return layoutPlan(stages, cards, plan.start, plan.end, measure);
}

/**
 * The same pages without the PDF, for the preview (`format=json`): every position in points
 * on a page of `page.width` × `page.height`, so a screen can draw them to scale.
 */
export function planPreview(plan: PlanPrint): PrintPreview {
  const doc = new (pdfDocument())({ autoFirstPage: false });
  const pages = pagesOn(doc, plan);
  return {
    board: plan.board,
    scope: plan.scope,
    start: plan.start,
    end: plan.end,
    page: { width: page.width, height: page.height },
    table: {
      left: printArea.tableLeft,
      top: printArea.tableTop,
      bodyTop: printArea.bodyTop,
      width: printArea.tableWidth,
      stageColumn: sheet.stageColumn,
    },
    pages: pages.map((at) => ({
      ...at,
      days: at.days.map((date) => ({
        date,
        label: dayLabel(date),
        workday: plan.calendar[date]?.workday ?? isoWeekday(date) < 6,
        holiday: plan.calendar[date]?.holiday ?? null,
      })),
      of: pages.length,
    })),
  };
}

function drawPage(doc: PDFKit.PDFDocument, plan: PlanPrint, at: PlanPage, pages: number): void {
  doc.addPage({ size: 'A4', layout: 'landscape', margin: page.margin });
  const { tableTop, tableLeft, tableWidth, bodyTop } = printArea;
  const tableRight = tableLeft + tableWidth;
  const noBreak = { lineBreak: false } as const;

  doc.fillColor('black').font('Helvetica-Bold').fontSize(14);
  doc.text(drawable(`${plan.board} — ${plan.scope}`), tableLeft, page.margin, { ...noBreak, width: tableWidth * 0.65, ellipsis: true });
  doc.font('Helvetica').fontSize(10);
  doc.text(periodLabel(plan.start, plan.end), tableLeft + tableWidth * 0.65, page.margin + 3, {
    ...noBreak,
    width: tableWidth * 0.35,
    align: 'right',
  });

  // Non-workdays and company holidays shaded down to the last stage, then the day header with
  // each holiday's name under its day.
  const last = at.stages[at.stages.length - 1];
  const bottom = last ? last.y + last.height : bodyTop;
  at.days.forEach((day, i) => {
    if (closed(plan, day)) doc.rect(at.dayX[i]!, tableTop, at.dayWidth, bottom - tableTop).fill(closedFill);
  });
  doc.fillColor('black').font('Helvetica-Bold').fontSize(8);
  doc.text('Stage', tableLeft + 3, tableTop + 5, { ...noBreak, width: sheet.stageColumn - 6 });
  at.days.forEach((day, i) => {
    doc.text(dayLabel(day), at.dayX[i]! + 2, tableTop + 5, { ...noBreak, width: at.dayWidth - 4, align: 'center' });
  });
  doc.font('Helvetica-Oblique').fontSize(6.5);
  at.days.forEach((day, i) => {
    const holiday = plan.calendar[day]?.holiday;
    if (holiday)
      doc.text(drawable(holiday), at.dayX[i]! + 2, tableTop + 15, { ...noBreak, width: at.dayWidth - 4, align: 'center', ellipsis: true });
  });

  for (const stage of at.stages) {
    doc.rect(tableLeft, stage.y, sheet.stageColumn, stage.height).fill(stageFill);
    doc.fillColor('black').font('Helvetica-Bold').fontSize(8);
    doc.text(stage.continued ? `${stage.name} (continued)` : stage.name, tableLeft + 3, stage.y + 4, {
      width: sheet.stageColumn - 6,
      height: Math.max(stage.height - 4, 10),
      ellipsis: true,
    });
    doc
      .lineWidth(0.5)
      .strokeColor(ruleColor)
      .moveTo(tableLeft, stage.y + stage.height)
      .lineTo(tableRight, stage.y + stage.height)
      .stroke();
  }

  // The grid: the frame, the header rule and a rule between days; the cards on top of it, so
  // no rule runs through a card's text.
  doc.lineWidth(0.5).strokeColor(ruleColor);
  doc.rect(tableLeft, tableTop, tableWidth, bottom - tableTop).stroke();
  doc.moveTo(tableLeft, bodyTop).lineTo(tableRight, bodyTop).stroke();
  for (const x of at.dayX) doc.moveTo(x, tableTop).lineTo(x, bottom).stroke();

  for (const card of at.stages.flatMap((stage) => stage.cards)) {
    doc.lineWidth(0.6).rect(card.x, card.y, card.width, card.height).fillAndStroke(boxFill, '#333333');
    card.lines.forEach((line, i) => {
      // The name in bold, the details (what for, how long, who) in the regular face.
      doc
        .fillColor('black')
        .font(i < card.nameLines ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(sheet.nameSize);
      doc.text(line, card.x + sheet.boxPadding, card.y + sheet.boxPadding + i * sheet.lineHeight, {
        ...noBreak,
        width: card.width - 2 * sheet.boxPadding + 1,
      });
    });
  }

  doc.fillColor('#555555').font('Helvetica').fontSize(7.5);
  const footerY = page.height - page.margin - sheet.footerHeight + 6;
  doc.text(drawable(`${plan.board} · ${periodLabel(plan.start, plan.end)}`), tableLeft, footerY, { ...noBreak, width: tableWidth / 2 });
  doc.text(`Page ${at.number} of ${pages}`, tableLeft + tableWidth / 2, footerY, { ...noBreak, width: tableWidth / 2, align: 'right' });
}
