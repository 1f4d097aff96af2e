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
} as const;
export type QuestionType = (typeof QuestionType)[keyof typeof QuestionType];
export const QUESTION_TYPES = Object.values(QuestionType) as [QuestionType, ...QuestionType[]];

/**
 * Types whose answer is an uploaded picture (stored through POST /files/image). A signature is a
 * PNG drawn on the phone and travels the same upload path and outbox as a photo.
 */
export const IMAGE_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.image, QuestionType.liveImages, QuestionType.signature];
/** Types that need an option list of at least MIN_OPTIONS entries. */
export const OPTION_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.select, QuestionType.checkbox];
/** Shown in the builder but not selectable (spec section 5). */
export const DISABLED_QUESTION_TYPES: readonly QuestionType[] = [QuestionType.files];
