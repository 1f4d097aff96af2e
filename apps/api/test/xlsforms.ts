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

/**
 * Lines, areas, rankings, sound, video and documents as ODK, Kobo and older tools spell them, with
 * a range and a date-time: every row is carried, none reported.
 */
export function moreTypesForm(): Promise<Buffer> {
  return workbook({
    survey: [
      ['type', 'name', 'label', 'parameters', 'required'],
      ['geotrace', 'route', 'Route walked', '', 'yes'], // row 2
      ['GEOSHAPE', 'plot', 'Plot boundary', '', 'yes'], // 3
      ['q geotrace', 'road', 'Road', '', ''], // 4
      ['rank priorities', 'ranked', 'Rank the priorities', '', ''], // 5
      ['odk:rank priorities', 'ranked2', 'Rank them again', '', ''], // 6
      ['audio', 'voice', 'Record the answer', '', ''], // 7
      ['add video prompt', 'clip', 'Film the shop', '', ''], // 8
      ['file', 'deed', 'Attach the title deed', '', ''], // 9
      ['range', 'score', 'Score', 'start=0 end=10 step=2', ''], // 10
      ['dateTime', 'visit', 'Visit time', '', ''], // 11
    ],
    choices: [['list_name', 'name', 'label'], ['priorities', 'water', 'Water'], ['priorities', 'roads', 'Roads'], ['priorities', 'schools', 'Schools']],
  });
}

/** Labels in English, Hausa and Yoruba, as Kobo writes them: `label::English (en)`. */
const L3 = (column: string) => [`${column}::English (en)`, `${column}::Hausa (ha)`, `${column}::Yoruba (yo)`];

/**
 * A household survey as Nigerian teams build them: a roster repeated once per member (its count
 * from an integer), each member's age, a calculated number of children, skip logic inside groups,
 * `or_other`, a note showing an answer, metadata, three languages and a settings sheet.
 */
export function householdRosterForm(): Promise<Buffer> {
  return workbook({
    survey: [
      ['type', 'name', ...L3('label'), ...L3('hint'), 'required', 'relevant', 'constraint', ...L3('constraint_message'), 'calculation', 'repeat_count', 'appearance', 'required_message'],
      ['start', 'start', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 2
      ['end', 'end', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 3
      ['today', 'today', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 4
      ['deviceid', 'deviceid', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 5
      ['username', 'username', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 6
      ['begin_group', 'respondent', 'Respondent', 'Mai amsa', 'Olùdáhùn', '', '', '', '', '', '', '', '', '', '', '', 'field-list', ''], // 7
      ['text', 'hh_head', 'Name of the household head', 'Sunan maigida', 'Orúkọ olórí ilé', 'As on the ID card', 'Kamar a katin shaida', 'Bí ó ṣe wà lórí káàdì', 'yes', '', 'string-length(.) <= 60', 'At most 60 letters', 'Haruffa 60 kawai', 'Lẹ́tà 60 nìkan', '', '', '', 'Write the name'], // 8
      ['integer', 'hh_size', 'How many people live here?', 'Mutane nawa ke zaune a nan?', 'Èèyàn mélòó ló ń gbé ibí?', '', '', '', 'yes', '', '. >= 1 and . <= 30', 'Between 1 and 30', 'Tsakanin 1 da 30', 'Láàrin 1 sí 30', '', '', '', ''], // 9
      ['select_one water or_other', 'water', 'Main source of water', 'Babban tushen ruwa', 'Orísun omi', '', '', '', 'yes', '', '', '', '', '', '', '', 'minimal', ''], // 10
      ['end_group', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 11
      ['begin_repeat', 'member', 'Household member', 'Dan gida', 'Ará ilé', '', '', '', '', '', '', '', '', '', '', '${hh_size}', '', ''], // 12
      ['text', 'member_name', 'Member name', 'Sunan dan gida', 'Orúkọ ará ilé', '', '', '', 'yes', '', '', '', '', '', '', '', '', ''], // 13
      ['integer', 'age', 'Age in years', 'Shekaru', 'Ọjọ́ orí', '', '', '', 'yes', '', '. >= 0 and . <= 120', 'Between 0 and 120', 'Tsakanin 0 da 120', 'Láàrin 0 sí 120', '', '', '', ''], // 14
      ['begin_group', 'schooling', 'Schooling', 'Karatu', 'Ẹ̀kọ́', '', '', '', '', '${age} >= 5 and ${age} < 18', '', '', '', '', '', '', '', ''], // 15
      ['select_one yes_no', 'in_school', 'Attends school?', 'Yana zuwa makaranta?', 'Ṣé ó ń lọ sí ilé-ìwé?', '', '', '', 'yes', '', '', '', '', '', '', '', '', ''], // 16
      ['text', 'school_name', 'Name of the school', 'Sunan makaranta', 'Orúkọ ilé-ìwé', '', '', '', '', "${in_school} = 'yes'", '', '', '', '', '', '', '', ''], // 17
      ['end_group', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 18
      ['calculate', 'is_child', '', '', '', '', '', '', '', '', '', '', '', '', 'if(${age} < 18, 1, 0)', '', '', ''], // 19
      ['end_repeat', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 20
      ['calculate', 'children', '', '', '', '', '', '', '', '', '', '', '', '', 'sum(${is_child})', '', '', ''], // 21
      ['note', 'summary', 'This household has ${children} children', 'Gidan nan yana da yara ${children}', 'Ilé yìí ní ọmọ ${children}', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 22
      ['geopoint', 'gps', 'Location of the house', 'Wurin gidan', 'Ibi tí ilé wà', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 23
    ],
    choices: [
      ['list_name', 'name', ...L3('label')],
      ['yes_no', 'yes', 'Yes', 'Ee', 'Bẹ́ẹ̀ni'],
      ['yes_no', 'no', 'No', "A'a", 'Rárá'],
      ['water', 'tap', 'Piped water', 'Ruwan famfo', 'Omi ẹ̀rọ'],
      ['water', 'well', 'Well', 'Rijiya', 'Kànga'],
      ['water', 'borehole', 'Borehole', 'Burtsatse', 'Kànga-ẹ̀rọ'],
    ],
    settings: [['form_title', 'form_id', 'version', 'default_language', 'instance_name'], ['Household roster 2026', 'hh_roster_2026', '2026112801', 'English (en)', "concat(${hh_head}, ' - ', ${today})"]],
  });
}

/** Farms and, within each farm, its plots: a repeat inside a repeat, with range, datetime, acknowledge and expression columns. */
export function farmPlotsForm(): Promise<Buffer> {
  return workbook({
    survey: [
      ['type', 'name', 'label', 'hint', 'guidance_hint', 'required', 'required_message', 'relevant', 'constraint', 'constraint_message', 'calculation', 'default', 'read_only', 'appearance', 'repeat_count', 'parameters'],
      ['acknowledge', 'consent', 'The farmer agrees to the interview', '', 'Read the consent text aloud first', 'yes', 'Consent is needed to go on', '', '', '', '', '', '', '', '', ''], // 2
      ['dateTime', 'visit', 'Date and time of the visit', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 3
      ['integer', 'farm_count', 'How many farms?', '', '', 'yes', '', '', '. > 0', 'At least one farm', '', '1', '', '', '', ''], // 4
      ['begin_repeat', 'farm', 'Farm', '', '', '', '', '', '', '', '', '', '', '', '', 'min=1 max=5'], // 5
      ['text', 'farm_name', 'Farm name', '', '', 'yes', '', '', '', '', '', '', '', '', '', ''], // 6
      ['select_one crop', 'main_crop', 'Main crop', '', '', 'yes', '', '', '', '', '', '', '', '', '', ''], // 7
      ['begin_repeat', 'plot', 'Plot', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 8
      ['decimal', 'plot_size', 'Plot size (hectares)', 'Pace it out if there is no map', '', "${main_crop} = 'rice'", 'Rice plots need a size', '', '. > 0 and . < 100', '', '', '', '', '', '', ''], // 9
      ['range', 'yield_rating', 'How good was the last harvest?', '', '', '', '', '', '', '', '', '', '', '', '', 'start=0 end=10 step=2'], // 10
      ['calculate', 'plot_number', '', '', '', '', '', '', '', '', 'position(..)', '', '', '', '', ''], // 11
      ['text', 'plot_label', 'Plot label', '', '', '', '', '', '', '', "concat(${farm_name}, '-', ${plot_number})", '', 'yes', '', '', ''], // 12
      ['end_repeat', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 13
      ['end_repeat', '', '', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 14
      ['calculate', 'plots_total', '', '', '', '', '', '', '', '', 'count(${plot})', '', '', '', '', ''], // 15
      ['note', 'done', 'You recorded ${plots_total} plots', '', '', '', '', '', '', '', '', '', '', '', '', ''], // 16
    ],
    choices: [['list_name', 'name', 'label'], ['crop', 'rice', 'Rice'], ['crop', 'maize', 'Maize'], ['crop', 'cassava', 'Cassava']],
    settings: [['form_title', 'form_id'], ['Farms and plots', 'farm_plots']],
  });
}

/** The 36 states and the FCT; 774 LGAs spread over them as Nigeria's are (generated names). */
export const STATES = ['Abia', 'Adamawa', 'Akwa Ibom', 'Anambra', 'Bauchi', 'Bayelsa', 'Benue', 'Borno', 'Cross River', 'Delta', 'Ebonyi', 'Edo', 'Ekiti', 'Enugu', 'FCT', 'Gombe', 'Imo', 'Jigawa', 'Kaduna', 'Kano', 'Katsina', 'Kebbi', 'Kogi', 'Kwara', 'Lagos', 'Nasarawa', 'Niger', 'Ogun', 'Ondo', 'Osun', 'Oyo', 'Plateau', 'Rivers', 'Sokoto', 'Taraba', 'Yobe', 'Zamfara'];

/**
 * State -> LGA -> ward on a 774-LGA list: `choice_filter` on extra choice columns, three wards per
 * LGA whose labels repeat across LGAs ("Central" is in every one), so the answer is the choice name.
 */
export function cascadeForm(): Promise<Buffer> {
  const stateOf = (i: number) => STATES[i % STATES.length]!;
  const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const lgas = Array.from({ length: 774 }, (_, i) => ({ name: `lga_${i + 1}`, label: `${stateOf(i)} LGA ${Math.floor(i / STATES.length) + 1}`, state: slug(stateOf(i)) }));
  return workbook({
    survey: [
      ['type', 'name', 'label', 'required', 'choice_filter'],
      ['select_one state', 'state', 'State', 'yes', ''],
      ['select_one lga', 'lga', 'Local government area', 'yes', 'state=${state}'],
      ['select_one ward', 'ward', 'Ward', 'yes', 'lga=${lga}'],
      ['text', 'community', 'Community', 'no', ''],
    ],
    choices: [
      ['list_name', 'name', 'label', 'state', 'lga'],
      ...STATES.map((s) => ['state', slug(s), s, '', '']),
      ...lgas.map((l) => ['lga', l.name, l.label, l.state, '']),
      ...lgas.flatMap((l) => ['Central', 'North', 'South'].map((w) => ['ward', `${l.name}_${w.toLowerCase()}`, w, '', l.name])),
    ],
  });
}

/**
 * Spellings older tools and hand-made forms use, all accepted by pyxform: `select`/`select1`,
 * `int`, `string`, `gps`, `dateTime`, `trigger`, `begin group` with a space, `or_other`,
 * `label:English` and `label::english`, any case, `#` comment rows and a column no tool reads.
 */
export function legacySpellingForm(): Promise<Buffer> {
  return workbook({
    survey: [
      ['Type', 'Name', 'label:English', 'label::hausa', 'Required', 'Relevant', 'enumerator_notes'],
      ['# a comment row: never a question', '', '', '', '', '', ''], // 2
      ['begin group', 'about', 'About you', 'Game da kai', '', '', ''], // 3
      ['string', 'name', 'Your name', 'Sunanka', 'TRUE', '', 'ask politely'], // 4
      ['int', 'age', 'Your age', 'Shekarunka', 'Yes', '', ''], // 5
      ['SELECT1 sex', 'sex', 'Sex', 'Jinsi', '', '', ''], // 6
      ['select crops', 'crops', 'Crops grown', 'Amfanin gona', '', '${age} > 15', ''], // 7
      ['end group', '', '', '', '', '', ''], // 8
      ['gps', 'where', 'Where are you?', 'Ina kake?', '', '', ''], // 9
      ['DateTime', 'when', 'When is it?', 'Yaushe ne?', '', '', ''], // 10
      ['trigger', 'ok', 'Press OK to finish', 'Danna OK', '', '', 'last one'], // 11
      ['select_one sex or_other', 'sex2', 'Sex of the spouse', 'Jinsin mata/miji', '', '', ''], // 12
      ['Integer', 'rooms', 'Rooms', 'Dakuna', '', '', ''], // 13
    ],
    choices: [
      ['list name', 'name', 'label:English', 'label::hausa'],
      ['sex', 'm', 'Male', 'Namiji'],
      ['sex', 'f', 'Female', 'Mace'],
      ['crops', 'maize', 'Maize', 'Masara'],
      ['crops', 'rice', 'Rice', 'Shinkafa'],
    ],
  });
}

/**
 * ODK's lists from files: a ward chosen from `wards.csv` (60 wards over two LGAs, filtered by the
 * LGA chosen from the choices sheet through the CSV's `lga` column), crops ticked from `crops.csv`
 * (with a Hausa label), and a list whose file is not sent.
 */
export async function fromFileForm(): Promise<{ form: Buffer; files: { name: string; text: string }[] }> {
  const wards = Array.from({ length: 60 }, (_, i) => [`ward_${i + 1}`, `Ward ${i + 1}`, i < 30 ? 'kano_municipal' : 'nassarawa']);
  const form = await workbook({
    survey: [
      ['type', 'name', 'label', 'label::Hausa (ha)', 'choice_filter', 'required'],
      ['select_one lga', 'lga', 'LGA', 'Karamar hukuma', '', 'yes'], // row 2
      ['select_one_from_file wards.csv', 'ward', 'Ward', 'Mazaba', 'lga=${lga}', 'yes'], // 3
      ['select_multiple_from_file crops.csv', 'crops', 'Crops grown', 'Amfanin gona', '', ''], // 4
      ['select_one_from_file markets.csv', 'market', 'Market', 'Kasuwa', '', ''], // 5
    ],
    choices: [['list_name', 'name', 'label', 'label::Hausa (ha)'], ['lga', 'kano_municipal', 'Kano Municipal', 'Birnin Kano'], ['lga', 'nassarawa', 'Nassarawa', 'Nassarawa']],
  });
  return {
    form,
    files: [
      { name: 'wards.csv', text: ['name,label,lga', ...wards.map((w) => w.join(','))].join('\r\n') },
      { name: 'crops.csv', text: 'name,label,label::Hausa (ha)\nmaize,Maize,Masara\nsorghum,Sorghum,Dawa\n"groundnut","Groundnut, shelled",Gyada\n' },
    ],
  };
}
