/**
 * A payroll file (shared/payroll-file.ts) as each payroll package imports it (docs/API.md
 * "Payroll files", which names the specification followed and every column):
 *
 *  - Nmbrs: the import sheet's tab "Variabele Looncomponenten" as CSV. Columns A–G Debiteurnr,
 *    Bedrijfnr, Persnr, Naam, Periode (`2026-11`), Dagen, DagenVoorLC; from column H one
 *    column per hour code. Row 1 names the columns, row 2 holds the hour codes (from H), the
 *    employees' values follow from row 3; hours in decimals with a decimal comma.
 *  - Loket.nl: the conversion sheet of "Import variabele gegevens" as CSV. Columns A–E
 *    Werknemernummer, Naam, Begindatum, Einddatum, Dienstverband; from column F one column per
 *    component (hour code), the code as its heading; hours with a decimal comma.
 *  - DATEV LODAS: the ASCII import file: [Allgemein] (target, interface version, consultant and
 *    client number, separators, date format), [Satzbeschreibung] (record 1: a standard movement
 *    of the payroll month: period, personnel number, own wage type, processing key 1 = hours,
 *    the value) and [Bewegungsdaten], one record per employee and wage type.
 *
 * Both CSVs: `;`-separated, UTF-8 with a byte order mark (names with accents read right in
 * Excel, which both packages' sheets are filled in), CRLF line ends, text quoted as RFC 4180
 * when it holds `;`, `"` or a line end. DATEV: ISO 8859-1 (the ANSI the import reads), CRLF,
 * and nothing but digits, dates and the fixed words, so no character needs more.
 */
import type { PayrollFile, PayrollPackage } from '../../../../shared/payroll-file.js';
import { payrollHours } from '../../../../shared/payroll-file.js';
import { neutraliseFormula } from './csv.js';

export interface PayrollPackageFile {
  body: Buffer;
  contentType: string;
  filename: string;
}

const crlf = '\r\n';
const bom = '\uFEFF';

/** A CSV text field: a formula neutralised, quoted when it holds the separator, a quote or a line end. */
function field(value: string): string {
  const safe = neutraliseFormula(value);
  return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Every hour code of the file, in order: the columns of a sheet. */
function codesOf(file: PayrollFile): string[] {
  return [...new Set(file.employees.flatMap((e) => e.hours.map((h) => h.hour_code)))].sort((a, b) => a.localeCompare(b));
}

/** An employee's hours per code as the sheet's cells: empty where they have none. */
function hourCells(file: PayrollFile, codes: readonly string[], index: number): string[] {
  const byCode = new Map(file.employees[index]!.hours.map((h) => [h.hour_code, h.minutes]));
  return codes.map((code) => {
    const minutes = byCode.get(code);
    return minutes === undefined ? '' : payrollHours(minutes, ',');
  });
}

export function writeNmbrs(file: PayrollFile): string {
  const codes = codesOf(file);
  const fixed = ['Debiteurnr', 'Bedrijfnr', 'Persnr', 'Naam', 'Periode', 'Dagen', 'DagenVoorLC'];
  const rows = [
    [...fixed, ...codes.map((code) => `Uren ${code}`)],
    [...fixed.map(() => ''), ...codes],
    ...file.employees.map((employee, i) => [
      file.nmbrs.debtor,
      file.nmbrs.company,
      employee.payroll_ref,
      employee.name,
      file.month,
      '',
      '',
      ...hourCells(file, codes, i),
    ]),
  ];
  return bom + rows.map((row) => row.map(field).join(';')).join(crlf) + crlf;
}

/** DD-MM-YYYY, as Dutch sheets write a date. */
const dutchDate = (date: string) => `${date.slice(8, 10)}-${date.slice(5, 7)}-${date.slice(0, 4)}`;

export function writeLoket(file: PayrollFile): string {
  const codes = codesOf(file);
  const rows = [
    ['Werknemernummer', 'Naam', 'Begindatum', 'Einddatum', 'Dienstverband', ...codes],
    ...file.employees.map((employee, i) => [
      employee.payroll_ref,
      employee.name,
      dutchDate(file.start),
      dutchDate(file.end),
      '1',
      ...hourCells(file, codes, i),
    ]),
  ];
  return bom + rows.map((row) => row.map(field).join(';')).join(crlf) + crlf;
}

export function writeDatev(file: PayrollFile): string {
  const period = `01.${file.month.slice(5, 7)}.${file.month.slice(0, 4)}`;
  const lines = [
    '[Allgemein]',
    'Ziel=LODAS',
    'Version_SST=1.0',
    `BeraterNr=${file.datev.consultant}`,
    `MandantenNr=${file.datev.client}`,
    'Feldtrennzeichen=;',
    'Zahlenkomma=,',
    'Datumsformat=TT.MM.JJJJ',
    '',
    '[Satzbeschreibung]',
    '1;u_lod_bwd_buchung_standard;abrechnung_zeitraum#bwd;pnr#bwd;la_eigene#bwd;bs_nr#bwd;bs_wert_butab#bwd;',
    '',
    '[Bewegungsdaten]',
    ...file.employees.flatMap((employee) =>
      employee.hours.map((h) => `1;${period};${employee.payroll_ref};${h.hour_code};1;${payrollHours(h.minutes, ',')};`),
    ),
  ];
  return lines.join(crlf) + crlf;
}

export function writePayrollPackage(file: PayrollFile, pkg: PayrollPackage): PayrollPackageFile {
  if (pkg === 'datev')
    return {
      body: Buffer.from(writeDatev(file), 'latin1'),
      contentType: 'text/plain; charset=iso-8859-1',
      filename: `datev-lodas-${file.month}.txt`,
    };
  const text = pkg === 'nmbrs' ? writeNmbrs(file) : writeLoket(file);
  return { body: Buffer.from(text, 'utf8'), contentType: 'text/csv; charset=utf-8', filename: `${pkg}-hours-${file.month}.csv` };
}
