export const QuestionType = {
  text: 'text answer',
  select: 'select',
  largeSelect: 'select (> 50 dataset)',
  checkbox: 'checkbox',
  image: 'image',
  files: 'files',
  liveLocation: 'live location',
  liveImages: 'live images',
  // Typed questions: answers kept as text, checked and normalised by form-rules/.
  number: 'number',
  decimal: 'decimal',
  date: 'date',
  time: 'time',
  phone: 'phone',
  email: 'email',
  note: 'note',
  signature: 'signature',
  barcode: 'barcode',
  // The XLSForm model: containers, computed values, and types the app fills itself.
  /** A titled section (a screen with the `field-list` appearance); its members follow it and name it as `parent`. */
  group: 'group',
  /** A repeated set of questions: its answer is an array of instance objects keyed by the members' texts. */
  repeat: 'repeat',
  /** A hidden value computed from `calculation`, stored with the answers. */
  calculate: 'calculate',
  /** A confirmation (XLSForm `trigger`/`acknowledge`): answered "OK". */
  acknowledge: 'acknowledge',
  /** A date and time, ISO 8601 (`YYYY-MM-DDTHH:MM[:SS][offset]`). */
  datetime: 'datetime',
  /** A number on a slider between `range.start` and `range.end` by `range.step`. */
  range: 'range',
  /** A line walked or entered point by point: ODK's `lat lng alt acc;...` (geo.ts), at least 2 points. */
  geotrace: 'geotrace',
  /** An area: a closed ring of at least 3 points, the last repeating the first (geo.ts). */
  geoshape: 'geoshape',
  /** The choices put in order: the answer lists every choice name once, first the most preferred. */
  rank: 'rank',
  /** A sound recorded on the phone or picked from it, uploaded like a photo (media.ts caps it). */
  audio: 'audio',
  /** A video taken or picked, uploaded like a photo. */
  video: 'video',
  /** A document (PDF, office file, text) picked from the phone, uploaded like a photo. */
  file: 'file',
  // Metadata: filled by the app, never shown.
  start: 'start',
  end: 'end',
  today: 'today',
  deviceid: 'deviceid',
  username: 'username',
  /** The signed-in account's e-mail (XLSForm `email`; the name `email` is the typed e-mail question). */
  userEmail: 'user email',
} as const;
export type QuestionType = (typeof QuestionType)[keyof typeof QuestionType];
export const QUESTION_TYPES = Object.values(QuestionType) as [QuestionType, ...QuestionType[]];

/**
 * Types whose answer is an uploaded picture (stored through POST /files/image). A signature is a
 * PNG drawn on the phone and travels the same upload path and outbox as a photo.
 */
export const IMAGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.image, QuestionType.liveImages, QuestionType.signature];
/**
 * Types whose answer is an uploaded file: the photo store, outbox, placeholders and upload path
 * carry them all; only pictures are shrunk on the phone and cleaned of metadata on the server.
 */
export const UPLOAD_QUESTION_TYPES: readonly QuestionType[] = [...IMAGE_QUESTION_TYPES, QuestionType.audio, QuestionType.video, QuestionType.file];
/** Types that need an option list of at least MIN_OPTIONS entries. */
export const OPTION_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.select, QuestionType.checkbox, QuestionType.rank];
/** Types whose answer is a list of choice names (a checkbox's ticked ones, a rank's in order). */
export const LIST_ANSWER_TYPES: readonly QuestionType[] = [QuestionType.checkbox, QuestionType.rank];
/** Shown in the builder but not selectable (spec section 5). */
export const DISABLED_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.files];

/** Containers: a `group` nests no answers, a `repeat` nests its members' answers in instances. */
export const CONTAINER_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.group, QuestionType.repeat];
/** Filled by the app from what it knows (clock, device, account), never shown, never compulsory. */
export const METADATA_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.start,
  QuestionType.end,
  QuestionType.today,
  QuestionType.deviceid,
  QuestionType.username,
  QuestionType.userEmail,
];
/** Never shown as an input: metadata and calculations (a calculation is stored, recomputed by the server). */
export const HIDDEN_QUESTION_TYPES: readonly QuestionType[] = [...METADATA_QUESTION_TYPES, QuestionType.calculate];
/** The types the builder's picker offers; the XLSForm model's others arrive by import. */
export const BUILDER_QUESTION_TYPES: readonly QuestionType[] = [
  QuestionType.text,
  QuestionType.select,
  QuestionType.largeSelect,
  QuestionType.checkbox,
  QuestionType.image,
  QuestionType.files,
  QuestionType.liveLocation,
  QuestionType.liveImages,
  QuestionType.number,
  QuestionType.decimal,
  QuestionType.date,
  QuestionType.time,
  QuestionType.phone,
  QuestionType.email,
  QuestionType.note,
  QuestionType.signature,
  QuestionType.barcode,
  QuestionType.calculate,
  QuestionType.geotrace,
  QuestionType.geoshape,
  QuestionType.rank,
  QuestionType.audio,
  QuestionType.video,
  QuestionType.file,
];
