import { z } from 'zod';
import { Limits } from '../constants.js';
import { MAX_UPLOAD_BYTES } from '../media.js';
import { ApiMsg } from '../api-messages.js';
import { Msg } from '../messages.js';
import { ClientId, Id, IsoDate, Naira, PageQuery, Paging } from './common.js';
import { ResponseAudio } from './audio.js';
import { FlagState, FlaggedQuery, ResponseMetaFields } from './flags.js';
import { RESPONSE_STATUSES } from './review.js';
import { EncryptedAnswers } from './encrypted.js';

/** Text, a location string or an image reference; a list for checkboxes. Objects are refused. */
export const ScalarAnswer = z.union([
  z.string().max(Limits.maxAnswerLength, Msg.answerTooLong),
  z.array(z.string().max(Limits.maxOptionLength)).max(Limits.maxOptions),
], { error: 'An answer must be text or a list of texts' });
export type ScalarAnswer = z.infer<typeof ScalarAnswer>;
/** One instance of a repeat: its members' answers keyed by their texts (a nested repeat nests again). */
export interface RepeatInstance {
  [question: string]: Answer;
}
/** A question's answer, or a repeat's: an array of instance objects. */
export type Answer = ScalarAnswer | RepeatInstance[];
export type Answers = Record<string, Answer>;

/** Repeats inside repeats: ODK forms nest two or three deep (plots within farms within households). */
const MAX_REPEAT_DEPTH = 5;
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks one answer (a repeat's instances recursively, by own properties so a member called
 * `__proto__` is kept), adding an issue at its path; the parsed value itself is kept.
 */
function checkAnswer(value: unknown, path: PropertyKey[], depth: number, ctx: z.RefinementCtx): void {
  if (Array.isArray(value) && value.length > 0 && value.every(isPlainObject)) {
    if (depth >= MAX_REPEAT_DEPTH) return void ctx.addIssue({ code: 'custom', message: `Repeats nest at most ${MAX_REPEAT_DEPTH} deep`, path });
    if (value.length > Limits.maxRepeatInstances) return void ctx.addIssue({ code: 'custom', message: `Too many instances of a repeat (max ${Limits.maxRepeatInstances})`, path });
    value.forEach((instance: Record<string, unknown>, i) => {
      let n = 0;
      for (const key of Object.keys(instance)) {
        if (++n > Limits.maxQuestions) return void ctx.addIssue({ code: 'custom', message: ApiMsg.tooManyAnswers, path: [...path, i] });
        if (key.length > Limits.maxQuestionText) ctx.addIssue({ code: 'custom', message: 'A question text is too long', path: [...path, i, key] });
        checkAnswer(instance[key], [...path, i, key], depth + 1, ctx);
      }
    });
    return;
  }
  const checked = ScalarAnswer.safeParse(value);
  if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: [...path, ...issue.path] });
}

export const Answer = z.custom<Answer>(() => true).superRefine((value, ctx) => checkAnswer(value, [], 0, ctx));
/**
 * Answers keyed by question text. A question may be called `__proto__`: the parsed JSON holds it
 * as an own property, which z.record would drop (it assigns keys one by one), so the record is
 * validated and the parsed object itself is kept. Read answers with Object.hasOwn, never `in`.
 */
export const Answers = z.custom<Answers>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { error: 'answers must be an object' }).superRefine((value, ctx) => {
  for (const key of Object.keys(value)) {
    if (key.length > Limits.maxQuestionText) ctx.addIssue({ code: 'custom', message: 'A question text is too long', path: [key] });
    checkAnswer(value[key], [key], 0, ctx);
  }
});

/**
 * A photo sent after its response: the response is stored at once with this question's
 * answer PENDING_PHOTO_ANSWER, and POST /files/image with the response's clientId and this question
 * attaches the photo when it arrives, if its bytes have this size and SHA-256 (hex, of the bytes sent).
 */
export const PhotoPlaceholder = z.object({
  question: z.string().min(1).max(Limits.maxQuestionText),
  /** The photo's own id on the phone (the resumable upload's key). */
  clientId: ClientId,
  size: z.number().int().min(1).max(MAX_UPLOAD_BYTES, Msg.payloadTooLarge),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits'),
});
export type PhotoPlaceholder = z.infer<typeof PhotoPlaceholder>;

export const RespondBody = z.object({
  survey_id: Id,
  organization_id: Id,
  answers: Answers,
  /** Client-generated UUID: the idempotency key of this response. */
  clientId: ClientId.optional(),
  /** When the field user pressed submit, on the phone's clock. */
  capturedAt: IsoDate.optional(),
  /** Fix and resubmit: the `_id` of the caller's returned response this body revises (with a fresh clientId). */
  revisionOf: Id.optional(),
  /** A back-check: the `_id` of the response the caller was assigned to revisit; answers and version are the back-check form's. */
  backcheckOf: Id.optional(),
  /** The survey version the form was filled against; absent = 1. */
  version: z.number({ error: 'version must be a whole number' }).int('version must be a whole number').min(1, 'version must be a whole number').max(1_000_000).optional(),
  ...ResponseMetaFields,
  /** Photos still on the phone; absent from older phones, which upload photos first. */
  photos: z.array(PhotoPlaceholder).max(Limits.maxQuestions).optional(),
  /** The interview's audio audit (absent: not selected, or an older phone). */
  audio: ResponseAudio.optional(),
  /** An end-to-end encrypted survey's answers (then `answers` is empty): the server stores the envelope unread. */
  encrypted: EncryptedAnswers.optional(),
});
export type RespondBody = z.infer<typeof RespondBody>;
/** What the phone records with a response when it is queued; `sentAt` is added at each send. */
export type ResponseCapture = Pick<RespondBody, 'openedAt' | 'durationMs' | 'locationAccuracy' | 'locationFixedAt' | 'deviceId' | 'appVersion' | 'photoHashes'>;

export const RespondReply = z.object({ msg: z.string(), _id: z.string(), clientId: z.string() });
export type RespondReply = z.infer<typeof RespondReply>;

/** One queued response of a batch; the server validates each item on its own (SyncResponsesBody). */
export const SyncItem = RespondBody.required({ clientId: true });
export type SyncItem = z.infer<typeof SyncItem>;
/**
 * The envelope checks nothing about the items, so one malformed queued response (even `null`) is
 * answered 400 in its own result instead of failing (and blocking) the whole queue.
 */
export const SyncResponsesBody = z.object({
  responses: z
    .array(z.custom<z.input<typeof SyncItem>>(() => true))
    .min(1, 'Send at least one response')
    .max(Limits.maxBatch, `At most ${Limits.maxBatch} responses per batch`),
});
export type SyncResponsesBody = z.infer<typeof SyncResponsesBody>;
export const SyncResult = z.object({
  clientId: z.string(),
  status: z.number().int(),
  msg: z.string(),
  _id: z.string().optional(),
});
export type SyncResult = z.infer<typeof SyncResult>;
export const SyncResponsesReply = z.object({ results: z.array(SyncResult) });
export type SyncResponsesReply = z.infer<typeof SyncResponsesReply>;

export const ResponseRow = z.object({
  _id: z.string(),
  survey_id: z.string(),
  organization_id: z.string(),
  answers: Answers,
  fullName: z.string(),
  email: z.string(),
  fieldUser: z.object({ fullName: z.string(), email: z.string() }),
  createdAt: z.string(),
  capturedAt: z.string().nullable(),
  /** The review status; the detail view has the comment and audit trail. */
  status: z.enum(RESPONSE_STATUSES),
  /** End-to-end encrypted answers, opened in the office's browser; absent for a survey in clear. */
  encrypted: EncryptedAnswers.optional(),
  /** Quality flags: `checking` until they are computed. */
  ...FlagState,
});
export type ResponseRow = z.infer<typeof ResponseRow>;

/**
 * Where the next page starts: the key (created_at, id) of the last row shown. Sent back as `after`
 * with the next `page`, that page is read by keyset instead of skipping the matches before it.
 */
export const ResponsesCursor = z.string().regex(/^\d{1,16}\.[\w-]{1,64}$/, ApiMsg.badResponsesCursor);

export const ResponseListReply = z.object({ responses: z.array(ResponseRow), ...Paging, nextCursor: z.string().nullable() });
export type ResponseListReply = z.infer<typeof ResponseListReply>;

export const ResponsesQuery = PageQuery.extend({
  /** The previous page's nextCursor (same searchQuery); without it `page` is counted from the start. */
  after: ResponsesCursor.optional(),
  /** Only responses with this review status (with the search, if any). */
  status: z.enum(RESPONSE_STATUSES, { error: 'status must be approved, pending, returned or rejected' }).optional(),
  /** `true`: only responses with an open (not dismissed) quality flag; `false`: only those without. */
  flagged: FlaggedQuery.optional(),
});

/** `true`: personal answers read PERSONAL_MASK (an analyst gets them so whatever this says). */
export const WithoutPersonalQuery = z.enum(['true', 'false'], { error: 'withoutPersonal must be true or false' }).transform((v) => v === 'true').default(false);

/** What the download routes write: the workbook, a CSV, a zip of the CSV with a Stata or SPSS syntax file, or a map layer. */
export const EXPORT_FORMATS = ['xlsx', 'csv', 'stata', 'spss', 'geojson', 'kml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuery = ResponsesQuery.extend({
  format: z.enum(EXPORT_FORMATS, { error: 'format must be xlsx, csv, stata, spss, geojson or kml' }).default('xlsx'),
  /** A select's cell: its option text (`labels`) or its option's number in the list (`values`, 1 = first). */
  choices: z.enum(['labels', 'values'], { error: 'choices must be labels or values' }).default('labels'),
  /** `true`: a checkbox question's column is followed by one 0/1 column per option. */
  splitMultiple: z.enum(['true', 'false'], { error: 'splitMultiple must be true or false' }).transform((v) => v === 'true').default(false),
  withoutPersonal: WithoutPersonalQuery,
});
export type ExportQuery = z.infer<typeof ExportQuery>;

/**
 * Where a survey's changes feed stands: `<sequence>.<response id>` of the last change read. The
 * sequence is the server's (a commit order, not a time); a client keeps it opaque.
 */
export const SurveyChangesCursor = z.string().regex(/^\d{1,20}\.[\w-]{0,64}$/, 'since must be a cursor this route gave');
/** Most changes a feed page holds. */
export const SURVEY_CHANGES_PAGE = 1000;
export const SurveyChangesQuery = z.object({
  withoutPersonal: WithoutPersonalQuery,
  /** The previous page's nextCursor; without it the feed starts from the first response. */
  since: SurveyChangesCursor.optional(),
  limit: z.coerce.number({ error: `limit must be a whole number from 1 to ${SURVEY_CHANGES_PAGE}` }).int(`limit must be a whole number from 1 to ${SURVEY_CHANGES_PAGE}`).min(1, `limit must be a whole number from 1 to ${SURVEY_CHANGES_PAGE}`).max(SURVEY_CHANGES_PAGE, `limit must be a whole number from 1 to ${SURVEY_CHANGES_PAGE}`).default(SURVEY_CHANGES_PAGE),
});
export type SurveyChangesQuery = z.infer<typeof SurveyChangesQuery>;

/** A response as the changes feed gives it: as it stands now, answers keyed by each question's latest text. */
export const ChangedResponse = z.object({
  _id: z.string(),
  survey_id: z.string(),
  answers: Answers,
  fullName: z.string(),
  email: z.string(),
  createdAt: z.string(),
  capturedAt: z.string().nullable(),
  version: z.number().int(),
  revision: z.number().int(),
  status: z.enum(RESPONSE_STATUSES),
  reviewedAt: z.string().nullable(),
  reviewComment: z.string().nullable(),
  paid: z.boolean(),
});
export type ChangedResponse = z.infer<typeof ChangedResponse>;

/** Changed responses oldest change first; `nextCursor` is where the next call starts (the same cursor when nothing changed). */
export const SurveyChangesReply = z.object({ responses: z.array(ChangedResponse), nextCursor: z.string(), hasMore: z.boolean() });
export type SurveyChangesReply = z.infer<typeof SurveyChangesReply>;

/** The caller's export: none, running, or waiting with its place in line (1 = next). */
export const ExportQueueReply = z.object({
  state: z.enum(['none', 'running', 'waiting']),
  position: z.number().int().min(1).nullable(),
  waiting: z.number().int().min(0),
});
export type ExportQueueReply = z.infer<typeof ExportQueueReply>;

export const TopPerformerReply = z.object({
  topPerformer: z.string().nullable(),
  activeFieldUsers: z.number().int(),
  totalResponses: z.number().int(),
  /** Responses with an open quality flag; the card's share is this over totalResponses. */
  flaggedResponses: z.number().int(),
});
export type TopPerformerReply = z.infer<typeof TopPerformerReply>;

export const WeekDay = z.enum(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
export const ByWeeksQuery = z.object({ startDate: IsoDate, endDate: IsoDate });
export type ByWeeksQuery = z.infer<typeof ByWeeksQuery>;
/** value: responses that day; amount: naira earned by field users that day (the second chart). */
export const ByWeeksReply = z.array(z.object({ day: WeekDay, value: z.number().int(), amount: Naira }));
export type ByWeeksReply = z.infer<typeof ByWeeksReply>;

export const UploadImageReply = z.record(z.string(), z.string());
export type UploadImageReply = z.infer<typeof UploadImageReply>;
