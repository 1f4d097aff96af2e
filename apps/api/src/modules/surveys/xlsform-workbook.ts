import ExcelJS from 'exceljs';

// Only the XLSForm thread (xlsform-worker.ts) loads this file, and exceljs with it.
/** The workbook's bytes: every cell written as text (a choice name "01" stays "01"). */
export async function xlsformWorkbook(sheets: Record<string, string[][]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
    sheet.getRow(1).font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
