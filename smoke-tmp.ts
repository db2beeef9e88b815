import { writeFileSync } from 'node:fs';
import { writeReport } from './electron/api/time-tracking/export/index.js';
import { workedReport, readAll, pdfText } from './test/helpers/time-report.js';
for (const f of ['csv', 'xlsx', 'pdf'] as const) {
  const file = writeReport(workedReport('hh:mm'), f, { separator: ';', bom: true });
  const buf = await readAll(file.body);
  writeFileSync(`/tmp/tr-writers/${file.filename}`, buf);
  console.log(file.filename, file.contentType, buf.length);
  if (f === 'csv') console.log(buf.toString('utf8'));
  if (f === 'pdf') console.log(await pdfText(buf));
}
