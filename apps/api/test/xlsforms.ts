import ExcelJS from 'exceljs';

/**
 * XLSForms as ODK Build, pyxform's examples and KoboToolbox write them, built here so the tests
 * show every cell they rely on: a sheet is its header row, then its rows.
 */
type Rows = (string | number | boolean | null)[][];

export async function workbook(sheets: Record<string, Rows>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Kobo-style: English labels in `label::English (en)`, a group with its own relevance, constraints with messages. */
export function householdSurvey(): Promise<Buffer> {
  return workbook({
    survey: [
      ['type', 'name', 'label::English (en)', 'required', 'relevant', 'constraint', 'constraint_message::English (en)'],
      ['text', 'hh_head', 'Name of the household head', 'yes', '', 'string-length(.) <= 60', 'At most 60 letters'],
      ['integer', 'hh_size', 'How many people live in the household?', 'true', '', '. >= 1 and . <= 30', 'Between 1 and 30'],
      ['select_one yes_no', 'has_children', 'Are there children under 5?', 'yes', '', '', ''],
      ['begin group', 'children', 'Children', '', "${has_children} = 'yes'", '', ''],
      ['integer', 'children_count', 'How many children under 5?', 'yes', '', '. > 0 and . < 15', ''],
      ['select_multiple vaccines', 'vaccines', 'Which vaccines have they had?', '', '${children_count} > 1', '', ''],
      ['end group', '', '', '', '', '', ''],
      ['select_one water', 'water', 'Main source of drinking water', 'yes', '', '', ''],
      ['text', 'water_other', 'Other source of water', '', "${water} = 'other'", '', ''],
      ['decimal', 'income', 'Monthly income (naira)', '', "${hh_size} > 2 or selected(${vaccines}, 'bcg')", '. >= 0', ''],
      ['date', 'visit_date', 'Date of visit', 'yes', '', '. <= today()', 'Not in the future'],
      ['time', 'visit_time', 'Time of visit', '', '', '', ''],
      ['geopoint', 'gps', 'Location of the house', '', '', '', ''],
      ['image', 'house_photo', 'Photo of the house', '', '', '', ''],
      ['note', 'thanks', 'Thank the respondent', '', '', '', ''],
      ['barcode', 'card', 'Scan the health card', '', "${has_children} != 'no'", '', ''],
    ],
    choices: [
      ['list_name', 'name', 'label::English (en)'],
      ['yes_no', 'yes', 'Yes'],
      ['yes_no', 'no', 'No'],
      ['vaccines', 'bcg', 'BCG'],
      ['vaccines', 'polio', 'Polio'],
      ['vaccines', 'measles', 'Measles'],
      ['water', 'tap', 'Piped water'],
      ['water', 'well', 'Well'],
      ['water', 'other', 'Other'],
    ],
    settings: [['form_title', 'form_id'], ['Household survey 2026', 'household_2026']],
  });
}

/** ODK-style plain `label`: a market price form whose commodity list has 300 choices. */
export function marketPriceForm(): Promise<Buffer> {
  const commodities = Array.from({ length: 300 }, (_, i) => ['commodity', `c${i + 1}`, `Commodity ${String(i + 1).padStart(3, '0')}`]);
  return workbook({
    survey: [
      ['type', 'name', 'label', 'required', 'constraint'],
      ['select_one market', 'market', 'Market', 'yes', ''],
      ['select_one commodity', 'commodity', 'Commodity', 'yes', ''],
      ['select_multiple unit', 'units', 'Units sold', 'no', ''],
      ['decimal', 'price', 'Price (naira)', 'yes', '. > 0 and . < 1000000'],
      ['text', 'trader', 'Trader name', 'no', 'string-length(.) >= 2'],
    ],
    choices: [['list_name', 'name', 'label'], ['market', 'mile12', 'Mile 12'], ['market', 'oyingbo', 'Oyingbo'], ['unit', 'kg', 'Kilogram'], ['unit', 'bag', 'Bag'], ...commodities],
  });
}

/** Every feature the importer does not carry over, each on its own row or cell. */
export function unsupportedForm(): Promise<Buffer> {
  return workbook({
    survey: [
      ['type', 'name', 'label', 'label::Hausa (ha)', 'hint', 'required', 'required_message', 'relevant', 'constraint', 'appearance', 'calculation', 'default', 'choice_filter'],
      ['start', 'start', '', '', '', '', '', '', '', '', '', '', ''], // row 2
      ['deviceid', 'deviceid', '', '', '', '', '', '', '', '', '', '', ''], // 3
      ['text', 'name', 'Your name', 'Sunanka', 'Full name', 'yes', 'Please answer', '', 'regex(., "^[A-Z]")', 'multiline', '', 'Ada', ''], // 4
      ['calculate', 'double', '', '', '', '', '', '', '', '', '${age} * 2', '', ''], // 5
      ['integer', 'age', 'Age', '', '', '', '', "${name} = 'x' and ${name} != 'y' or ${name} = 'z'", '. >= 0 or . = -1', '', '', '', ''], // 6
      ['begin repeat', 'members', 'Members', '', '', '', '', '', '', '', '', '', ''], // 7
      ['text', 'member_name', 'Member name', '', '', '', '', '', '', '', '', '', ''], // 8
      ['end repeat', '', '', '', '', '', '', '', '', '', '', '', ''], // 9
      ['range', 'score', 'Score', '', '', '', '', '', '', '', '', '', ''], // 10
      ['select_one_from_file lgas.csv', 'lga', 'LGA', '', '', '', '', '', '', '', '', '', ''], // 11
      ['select_one state', 'state', 'State', '', '', '', '', '', '', '', '', '', ''], // 12
      ['select_one lga', 'lga2', 'LGA', '', '', '', '', '', '', '', '', '', 'state=${state}'], // 13
      ['geotrace', 'route', 'Route walked', '', '', '', '', '', '', '', '', '', ''], // 14
      ['audio', 'voice', 'Record a message', '', '', '', '', '', '', '', '', '', ''], // 15
      ['text', 'later', 'Depends on a later question', '', '', '', '', '${final} > 3', '', '', '', '', ''], // 16
      ['integer', 'final', 'Final', '', '', '', '', '', '', '', '', '', ''], // 17
      ['select_one missing_list', 'broken', 'Broken', '', '', '', '', '', '', '', '', '', ''], // 18
    ],
    choices: [
      ['list_name', 'name', 'label', 'state', 'media::image'],
      ['state', 'lagos', 'Lagos', '', 'lagos.png'], // row 2
      ['state', 'kano', 'Kano', '', ''], // 3
      ['lga', 'ikeja', 'Ikeja', 'lagos', ''], // 4
      ['lga', 'nassarawa', 'Nassarawa', 'kano', ''], // 5
    ],
  });
}
