/** The media type of an .xlsx download. */
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// eslint-disable-next-line no-control-regex -- matching those control characters is the point
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex -- as above; a cheap test before the replace
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;
const FORMULA_START = /^[=+\-@\t\r]/;
/** A sign then digits (a phone number in +234 form, "-5"): no spreadsheet evaluates it as a formula. */
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;

/**
 * Text as a spreadsheet must get it: never a formula. A leading = + - @ tab or CR gets a quote
 * so Excel, LibreOffice and a later CSV save all keep it as text; a signed number such as
 * "+2348122223333" is no formula and stays as typed (the cell is a text cell all the same).
 */
export function plainText(value: string): string {
  // Lone surrogates and the control characters XML 1.0 forbids become U+FFFD here: the writer
  // would silently drop the latter, and "\u0000=1" would then reach the sheet as "=1" unquoted.
  const wellFormed = SUSPECT.test(value) ? value.replace(ILL_FORMED, '\uFFFD') : value;
  return FORMULA_START.test(wellFormed) && !SIGNED_NUMBER.test(wellFormed) ? `'${wellFormed}` : wellFormed;
}
