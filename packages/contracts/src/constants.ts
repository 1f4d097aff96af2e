/** Business constants of spec section 9 and the server limits we chose (docs/decisions.md). */
export const Limits = {
  maxAccounts: 5,
  narrowScreenPx: 480,
  toastMs: 2500,
  landingAnimationMs: 1000,
  minFullName: 3,
  minOrganizationName: 3,
  accountNumberLength: 10,
  minOptions: 2,
  weeksSelectable: 10,
  doughnutCutout: '70%',
  pageSize: 20,
  /** A bulk invitation file: a 5,000-row sheet of people with bank details is about 1 MB as CSV. */
  maxBulkInviteBytes: 2 * 1024 * 1024,
  /** Rows of one bulk invitation upload: ten times the largest team asked for (500). */
  maxBulkInviteRows: 5000,
  /** Field users moved to one supervisor in one request: a survey's team page, selected. */
  maxBulkAssign: 500,
  /** Surveys one person is invited to in one request. */
  maxInviteSurveys: 50,
  /** A survey's team copied to another in one request: ten times the largest team asked for (500), as a file's rows. */
  maxCopyTeam: 5000,
  /** The reason given with a rejected bank change request (the field user reads it). */
  maxBankRejectReason: 300,
  maxTitle: 200,
  maxDescription: 2000,
  maxQuestionText: 500,
  maxQuestions: 200,
  maxOptions: 1000,
  maxOptionLength: 500,
  /** An XLSForm expression (relevant, constraint, calculation...); ODK forms' longest run to about 2,000. */
  maxExpression: 4000,
  /** A hint, message, default or translated text of a question. */
  maxFormText: 2000,
  /** Instances of one repeat in a response (a household roster of 30 is large; 500 bounds the work per response). */
  maxRepeatInstances: 500,
  maxDatasetOptions: 200_000,
  datasetSearchLimit: 50,
  maxAnswerLength: 10_000,
  maxSearchQuery: 200,
  maxBatch: 100,
  maxImageBytes: 10 * 1024 * 1024,
  /** An XLSForm to import: far above any real form, below what unzipping could make costly. */
  maxXlsformBytes: 10 * 1024 * 1024,
  /**
   * What the parts of an XLSForm read (workbook, shared strings, its three sheets) may unpack to, all
   * together: a 100,000-choice form is about 12 MB of XML, while a 400 KB zip bomb is hundreds of MB.
   */
  maxXlsformUnpackedBytes: 50 * 1024 * 1024,
  maxImagePixels: 50_000_000,
  activeFieldUserDays: 7,
  /** NIST SP 800-63B 5.1.1.2: at least 8 characters for a password the person chose. */
  minPassword: 8,
  maxPassword: 200,
  maxEmail: 254,
  maxReviewBatch: 500,
  maxReviewComment: 1000,
  /** Pending responses one review-by-search may change at once; the rest wait for the next call. */
  maxReviewBySearch: 10_000,
  maxPayoutFieldUsers: 5000,
} as const;

/**
 * A survey's photo quality: what the phone shrinks a photo to before it is queued.
 * Standard, the default, is for 2G; high when the organization needs the detail.
 */
export const PhotoQuality = { standard: 'standard', high: 'high' } as const;
export type PhotoQuality = (typeof PhotoQuality)[keyof typeof PhotoQuality];
/**
 * Longest edge (px) and JPEG quality (0-1) per setting. High is what every photo got before the
 * setting existed (2000 px at 0.85): its extra pixels are for detail, not spent on coarser
 * quantisation. Median sizes on generated 12 MP photos: docs/benchmarks.md (photo quality: 390 KB standard, 661 KB high).
 */
export const PhotoEncoding: Record<PhotoQuality, { maxEdge: number; jpeg: number }> = {
  standard: { maxEdge: 1600, jpeg: 0.8 },
  high: { maxEdge: 2000, jpeg: 0.85 },
};

export const PHOTO_FILE_NAME = 'photo.jpg';
export const PHOTO_MIME = 'image/jpeg';
export const API_BASE = '/api/v1';
export const ACCOUNTS_STORAGE_KEY = 'accounts';

/**
 * The languages of the app itself (not a form's): English is the source catalog; Hausa, Yoruba, Igbo
 * and Nigerian Pidgin are drafts awaiting native speakers' review (docs/translations.md).
 */
export const AppLanguages = ['en', 'ha', 'yo', 'ig', 'pcm'] as const;
export type AppLanguage = (typeof AppLanguages)[number];
export const DEFAULT_LANGUAGE: AppLanguage = 'en';
export const isAppLanguage = (v: unknown): v is AppLanguage => typeof v === 'string' && (AppLanguages as readonly string[]).includes(v);
