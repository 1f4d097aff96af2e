import { type AppLanguage, isAppLanguage } from '@survey-bird/contracts';

/**
 * The mails' words in each app language: a mail goes out in its recipient's (users.language; English
 * for an e-mail with no account yet, as an invitation's usually is). English is the source; the other
 * languages are drafts awaiting review by native speakers, like the app's catalogs (docs/translations.md).
 */
export interface MailWords {
  verifySubject: string;
  verifyText: (link: string) => string;
  resetSubject: string;
  resetText: (link: string) => string;
  /** A field user's or supervisor's invitation to a survey. */
  memberInviteSubject: (organization: string) => string;
  memberInviteText: (p: { organization: string; role: 'field_user' | 'supervisor'; survey?: string; hasAccount: boolean; link: string }) => string;
  paidSubject: string;
  paidText: (amount: string, responses: number, reference: string) => string;
  returnedWhat: (n: number) => string;
  returnedText: (what: string) => string;
  syncSubject: (n: number) => string;
  syncIntro: string;
  syncExplain: string;
  syncSee: (url: string) => string;
  syncStop: string;
}

const en: MailWords = {
  verifySubject: 'Confirm your Survey Bird account',
  verifyText: (link) => `Welcome to Survey Bird. Confirm your e-mail address by opening this link within 48 hours:\n\n${link}`,
  resetSubject: 'Reset your Survey Bird password',
  resetText: (link) => `Someone asked to reset the password of your Survey Bird account. If it was you, open this link within an hour:\n\n${link}\n\nIf it was not you, ignore this e-mail.`,
  memberInviteSubject: (org) => `${org} invites you to Survey Bird`,
  memberInviteText: ({ organization, role, survey, hasAccount, link }) =>
    `${organization} has invited you to Survey Bird as ${role === 'supervisor' ? 'a supervisor' : 'a field user'}${survey === undefined ? '' : ` of the survey "${survey}"`}. ${hasAccount ? 'Sign in with your existing account to get started' : 'Create your account to get started'}:\n\n${link}`,
  paidSubject: 'Survey Bird: you have been paid',
  paidText: (amount, n, ref) => `You have been paid ${amount} for ${n} ${n === 1 ? 'response' : 'responses'}. Transfer reference: ${ref}`,
  returnedWhat: (n) => (n === 1 ? '1 response needs a fix' : `${n} responses need a fix`),
  returnedText: (what) => `${what}. Open Survey Bird, go to Earnings, read the reviewer's comment and send the response again once fixed.`,
  syncSubject: (n) => `Survey Bird: ${n} field user${n === 1 ? '' : 's'} to check`,
  syncIntro: 'Field users assigned to you whose phones need a look:',
  syncExplain: 'A phone that has not synced may be off, out of data or out of space; failed responses wait for the field user to open the app and fix or discard them.',
  syncSee: (url) => `See them in Survey Bird: ${url}`,
  syncStop: 'To stop this e-mail, turn off "Daily sync e-mail" in Settings in Survey Bird.',
};

const ha: MailWords = {
  verifySubject: 'Tabbatar da asusunka na Survey Bird',
  verifyText: (link) => `Barka da zuwa Survey Bird. Tabbatar da adireshin imel ɗinka ta buɗe wannan mahaɗa cikin awa 48:\n\n${link}`,
  resetSubject: 'Sake saita kalmar sirrinka ta Survey Bird',
  resetText: (link) => `Wani ya nemi a sake saita kalmar sirrin asusunka na Survey Bird. Idan kai ne, buɗe wannan mahaɗa cikin awa ɗaya:\n\n${link}\n\nIdan ba kai ba ne, ka yi watsi da wannan imel.`,
  memberInviteSubject: (org) => `${org} na gayyatarka zuwa Survey Bird`,
  memberInviteText: ({ organization, role, survey, hasAccount, link }) =>
    `${organization} ta gayyace ka zuwa Survey Bird a matsayin ${role === 'supervisor' ? 'mai kulawa' : 'ma\'aikacin fili'}${survey === undefined ? '' : ` na binciken "${survey}"`}. ${hasAccount ? 'Shiga da asusunka na yanzu don farawa' : 'Ƙirƙiri asusunka don farawa'}:\n\n${link}`,
  paidSubject: 'Survey Bird: an biya ka',
  paidText: (amount, n, ref) => `An biya ka ${amount} kan amsoshi ${n}. Lambar tura kuɗi: ${ref}`,
  returnedWhat: (n) => (n === 1 ? 'Amsa 1 na buƙatar gyara' : `Amsoshi ${n} na buƙatar gyara`),
  returnedText: (what) => `${what}. Buɗe Survey Bird, je zuwa Kuɗin shiga, karanta sharhin mai dubawa sannan ka sake aika amsar bayan ka gyara.`,
  syncSubject: (n) => `Survey Bird: ma'aikatan fili ${n} da za a duba`,
  syncIntro: "Ma'aikatan fili da aka ba ka waɗanda wayoyinsu ke buƙatar dubawa:",
  syncExplain: "Wayar da ba ta yi aiki tare ba na iya kasancewa a kashe, babu data ko babu wuri; amsoshin da suka gaza suna jiran ma'aikacin fili ya buɗe manhajar ya gyara ko ya watsar da su.",
  syncSee: (url) => `Duba su a Survey Bird: ${url}`,
  syncStop: 'Don dakatar da wannan imel, kashe "Imel na aiki tare na kullum" a Saituna a Survey Bird.',
};

const yo: MailWords = {
  verifySubject: 'Jẹ́rìí sí àkọọ́lẹ̀ Survey Bird rẹ',
  verifyText: (link) => `Ẹ kú àbọ̀ sí Survey Bird. Jẹ́rìí sí àdírẹ́sì ímeèlì rẹ nípa ṣíṣí ìjápọ̀ yìí láàrin wákàtí 48:\n\n${link}`,
  resetSubject: 'Tún ọ̀rọ̀ aṣínà Survey Bird rẹ ṣe',
  resetText: (link) => `Ẹnìkan béèrè láti tún ọ̀rọ̀ aṣínà àkọọ́lẹ̀ Survey Bird rẹ ṣe. Bí ìwọ ni, ṣí ìjápọ̀ yìí láàrin wákàtí kan:\n\n${link}\n\nBí kì í ṣe ìwọ, fojú fo ímeèlì yìí.`,
  memberInviteSubject: (org) => `${org} pè ọ́ sí Survey Bird`,
  memberInviteText: ({ organization, role, survey, hasAccount, link }) =>
    `${organization} ti pè ọ́ sí Survey Bird gẹ́gẹ́ bí ${role === 'supervisor' ? 'alábòójútó' : 'òṣìṣẹ́ pápá'}${survey === undefined ? '' : ` fún ìwádìí "${survey}"`}. ${hasAccount ? 'Wọlé pẹ̀lú àkọọ́lẹ̀ rẹ tó wà tẹ́lẹ̀ láti bẹ̀rẹ̀' : 'Ṣẹ̀dá àkọọ́lẹ̀ rẹ láti bẹ̀rẹ̀'}:\n\n${link}`,
  paidSubject: 'Survey Bird: a ti sanwó fún ọ',
  paidText: (amount, n, ref) => `A ti san ${amount} fún ọ fún ìdáhùn ${n}. Nọ́mbà ìfiránṣẹ́ owó: ${ref}`,
  returnedWhat: (n) => `Ìdáhùn ${n} nílò àtúnṣe`,
  returnedText: (what) => `${what}. Ṣí Survey Bird, lọ sí Owó tí o pa, ka àlàyé olùyẹ̀wò kí o sì tún fi ìdáhùn náà ránṣẹ́ lẹ́yìn àtúnṣe.`,
  syncSubject: (n) => `Survey Bird: òṣìṣẹ́ pápá ${n} láti yẹ̀wò`,
  syncIntro: 'Àwọn òṣìṣẹ́ pápá tí a yàn fún ọ tí fóònù wọn nílò àyẹ̀wò:',
  syncExplain: 'Fóònù tí kò tíì ṣe ìmúṣiṣẹ́pọ̀ lè wà ní pípa, kò ní dátà tàbí kò ní àyè; àwọn ìdáhùn tí kò lọ ń dúró de òṣìṣẹ́ pápá láti ṣí áàpù kí ó tún wọn ṣe tàbí pa wọ́n rẹ́.',
  syncSee: (url) => `Wò wọ́n nínú Survey Bird: ${url}`,
  syncStop: 'Láti dá ímeèlì yìí dúró, pa "Ímeèlì ìmúṣiṣẹ́pọ̀ ojoojúmọ́" nínú Ètò ní Survey Bird.',
};

const ig: MailWords = {
  verifySubject: 'Kwado akaụntụ Survey Bird gị',
  verifyText: (link) => `Nnọọ na Survey Bird. Kwado adreesị email gị site n'imeghe njikọ a n'ime awa 48:\n\n${link}`,
  resetSubject: 'Tọgharịa okwuntughe Survey Bird gị',
  resetText: (link) => `Mmadụ rịọrọ ka a tọgharịa okwuntughe akaụntụ Survey Bird gị. Ọ bụrụ na ọ bụ gị, meghee njikọ a n'ime otu awa:\n\n${link}\n\nỌ bụrụ na ọ bụghị gị, leghara email a anya.`,
  memberInviteSubject: (org) => `${org} na-akpọ gị òkù na Survey Bird`,
  memberInviteText: ({ organization, role, survey, hasAccount, link }) =>
    `${organization} akpọọla gị òkù na Survey Bird dị ka ${role === 'supervisor' ? 'onye nlekọta' : 'onye ọrụ ubi'}${survey === undefined ? '' : ` nke nyocha "${survey}"`}. ${hasAccount ? 'Banye na akaụntụ gị dị adị iji malite' : 'Mepụta akaụntụ gị iji malite'}:\n\n${link}`,
  paidSubject: 'Survey Bird: akwụọla gị ụgwọ',
  paidText: (amount, n, ref) => `Akwụọla gị ${amount} maka azịza ${n}. Nọmba ntụnye ego: ${ref}`,
  returnedWhat: (n) => `Azịza ${n} chọrọ mmezi`,
  returnedText: (what) => `${what}. Meghee Survey Bird, gaa na Ego ị nwetara, gụọ okwu onye nyocha ma zipụ azịza ahụ ọzọ mgbe i meziri ya.`,
  syncSubject: (n) => `Survey Bird: ndị ọrụ ubi ${n} ị ga-elele`,
  syncIntro: 'Ndị ọrụ ubi e kenyere gị ndị ekwentị ha chọrọ nlele:',
  syncExplain: 'Ekwentị na-emekọrịtaghị nwere ike ịbụ na ọ gbanyụrụ, enweghị data ma ọ bụ enweghị ohere; azịza ndị dara na-eche ka onye ọrụ ubi meghee ngwa ahụ wee mezie ma ọ bụ tufuo ha.',
  syncSee: (url) => `Hụ ha na Survey Bird: ${url}`,
  syncStop: 'Iji kwụsị email a, gbanyụọ "Email mmekọrịta kwa ụbọchị" na Ntọala na Survey Bird.',
};

const pcm: MailWords = {
  verifySubject: 'Confirm your Survey Bird account',
  verifyText: (link) => `Welcome to Survey Bird. Confirm your e-mail address: open dis link before 48 hours reach:\n\n${link}`,
  resetSubject: 'Change your Survey Bird password',
  resetText: (link) => `Somebody ask make dem change di password for your Survey Bird account. If na you, open dis link before one hour reach:\n\n${link}\n\nIf no be you, just leave dis e-mail.`,
  memberInviteSubject: (org) => `${org} dey invite you come Survey Bird`,
  memberInviteText: ({ organization, role, survey, hasAccount, link }) =>
    `${organization} don invite you come Survey Bird as ${role === 'supervisor' ? 'supervisor' : 'field worker'}${survey === undefined ? '' : ` for di survey "${survey}"`}. ${hasAccount ? 'Sign in with di account wey you get before make you start' : 'Create your account make you start'}:\n\n${link}`,
  paidSubject: 'Survey Bird: dem don pay you',
  paidText: (amount, n, ref) => `Dem don pay you ${amount} for ${n} ${n === 1 ? 'response' : 'responses'}. Transfer reference: ${ref}`,
  returnedWhat: (n) => (n === 1 ? '1 response need fix' : `${n} responses need fix`),
  returnedText: (what) => `${what}. Open Survey Bird, go Earnings, read wetin di reviewer talk, fix am and send di response again.`,
  syncSubject: (n) => `Survey Bird: ${n} field worker${n === 1 ? '' : 's'} wey you go check`,
  syncIntro: 'Field workers wey dem give you wey their phone need check:',
  syncExplain: 'Phone wey never sync fit don off, no get data or no get space; responses wey fail dey wait make di field worker open di app, fix dem or throw dem away.',
  syncSee: (url) => `See dem for Survey Bird: ${url}`,
  syncStop: 'To stop dis e-mail, off "Daily sync e-mail" for Settings inside Survey Bird.',
};

export const MAIL_WORDS: Record<AppLanguage, MailWords> = { en, ha, yo, ig, pcm };

/** A recipient's mail words: their account's language, English when unknown. */
export const mailWords = (language: string | null | undefined): MailWords => MAIL_WORDS[isAppLanguage(language) ? language : 'en'];
