import { QuestionType, withQuestionIds, type StoredQuestion } from '@survey-bird/contracts';

/** The demo organization's content: believable names, a survey with every question type. */
export const DEMO_ORG = { name: 'Harvest Insight Ltd', email: 'ops@harvestinsight.ng' };
/** An office user of the demo organization with the analyst role: the data without the people in it (masked answers, areas on the map). */
export const DEMO_ANALYST = { email: 'data@harvestinsight.ng', fullName: 'Amaka Nwosu' };

const LAGOS_LGAS = ['Agege', 'Ajeromi-Ifelodun', 'Alimosho', 'Amuwo-Odofin', 'Apapa', 'Badagry', 'Epe', 'Eti-Osa', 'Ibeju-Lekki', 'Ifako-Ijaiye', 'Ikeja', 'Ikorodu', 'Kosofe', 'Lagos Island', 'Lagos Mainland', 'Mushin', 'Ojo', 'Oshodi-Isolo', 'Shomolu', 'Surulere'];
export const WARDS = LAGOS_LGAS.flatMap((lga) => ['A', 'B', 'C', 'D', 'E', 'F'].map((w) => `${lga} - Ward ${w}`));

export const RETAIL_QUESTIONS: StoredQuestion[] = withQuestionIds<Omit<StoredQuestion, 'id'>>([
  { text: 'Outlet name', type: QuestionType.text, compulsory: true, options: [] },
  { text: 'Outlet type', type: QuestionType.select, compulsory: true, options: ['Kiosk', 'Supermarket', 'Open market stall', 'Pharmacy'] },
  { text: 'Ward', type: QuestionType.largeSelect, compulsory: true, options: [], optionCount: WARDS.length },
  { text: 'Products in stock', type: QuestionType.checkbox, compulsory: false, options: ['Rice', 'Beans', 'Garri', 'Palm oil', 'Sugar'] },
  { text: 'Shelf photo', type: QuestionType.image, compulsory: false, options: [] },
  { text: 'Outlet location', type: QuestionType.liveLocation, compulsory: true, options: [] },
  { text: 'Storefront photo', type: QuestionType.liveImages, compulsory: false, options: [] },
  { text: 'Remarks', type: QuestionType.text, compulsory: false, options: [] },
]);

export const WATER_QUESTIONS: StoredQuestion[] = withQuestionIds<Omit<StoredQuestion, 'id'>>([
  { text: 'Household head name', type: QuestionType.text, compulsory: true, options: [] },
  { text: 'Main water source', type: QuestionType.select, compulsory: true, options: ['Borehole', 'Well', 'Tap', 'Water vendor', 'Stream'] },
  { text: 'Minutes to water source', type: QuestionType.text, compulsory: false, options: [] },
]);

export const SUPERVISORS = [
  { fullName: 'Chinedu Okafor', email: 'chinedu.okafor@harvestinsight.ng', phone: '08031234567', bank: 'Zenith Bank', account: '2012345678' },
  { fullName: 'Aisha Bello', email: 'aisha.bello@harvestinsight.ng', phone: '08059876543', bank: 'Guaranty Trust Bank', account: '0123987654' },
];

export const FIELD_USERS = [
  { fullName: 'Tunde Adeyemi', email: 'tunde.adeyemi@fieldteam.ng', phone: '08021112222', bank: 'Access Bank', account: '0691234501', rate: 250, supervisor: 0, weight: 5 },
  { fullName: 'Ngozi Eze', email: 'ngozi.eze@fieldteam.ng', phone: '08032223333', bank: 'First Bank of Nigeria', account: '3012345602', rate: 250, supervisor: 0, weight: 4 },
  { fullName: 'Ibrahim Musa', email: 'ibrahim.musa@fieldteam.ng', phone: '08043334444', bank: 'OPay', account: '8123456703', rate: 200, supervisor: 0, weight: 3 },
  { fullName: 'Funmilayo Ojo', email: 'funmilayo.ojo@fieldteam.ng', phone: '08054445555', bank: 'Kuda Bank', account: '2034567804', rate: 200, supervisor: 1, weight: 4 },
  { fullName: 'Emeka Nwosu', email: 'emeka.nwosu@fieldteam.ng', phone: '08065556666', bank: 'United Bank For Africa', account: '2145678905', rate: 300, supervisor: 1, weight: 2 },
  { fullName: 'Halima Yusuf', email: 'halima.yusuf@fieldteam.ng', phone: '08076667777', bank: 'Moniepoint Microfinance Bank', account: '6256789006', rate: 150, supervisor: null, weight: 2 },
];

export const OUTLET_NAMES = ['Mama Nkechi Provisions', 'Alhaji Sule Stores', 'Grace Supermart', 'Blessed Kiosk', 'Iya Basira Foods', 'Everyday Pharmacy', 'Chukwudi & Sons', 'Bukola Mini Mart', 'God First Ventures', 'Oluwaseun Market Stall', 'Favour Provision Store', 'Unity Pharmacy'];
export const REMARKS = ['Owner was cooperative', 'Shelves half empty', 'Asked for price list', 'Closed early for the market day', '', 'Stock arrives on Mondays', 'New outlet, opened last month'];
