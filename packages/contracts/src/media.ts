import { Limits } from './constants.js';
import { QuestionType } from './question-types.js';

/**
 * Per-type caps and pickers of the upload questions. A photo is shrunk on the phone (PhotoEncoding)
 * and capped by Limits.maxImageBytes; sound, video and documents travel as recorded or picked, so
 * each has its own cap, checked on the phone before the file is kept and by the server before a
 * byte is stored (413). Sizes: speech as Opus at 24 kbit/s is 180 KB a minute, so 20 MB is over
 * 15 minutes even as a phone's AAC at 128 kbit/s; a minute of 720p phone video is about 40 MB at
 * the bitrate Android's camera picks for MMS-sized clips, so 50 MB; a scanned PDF of 20 pages is under 10 MB.
 */
export const UploadCaps: Readonly<Record<string, number>> = {
  [QuestionType.image]: Limits.maxImageBytes,
  [QuestionType.liveImages]: Limits.maxImageBytes,
  [QuestionType.signature]: Limits.maxImageBytes,
  [QuestionType.audio]: 20 * 1024 * 1024,
  [QuestionType.video]: 50 * 1024 * 1024,
  [QuestionType.file]: 10 * 1024 * 1024,
};
/** The largest upload of any question type: what the upload routes take at most. */
export const MAX_UPLOAD_BYTES = Math.max(...Object.values(UploadCaps));

/** The cap of an upload question's type (a photo's for any other). */
export const uploadCap = (type: string): number => UploadCaps[type] ?? Limits.maxImageBytes;

/**
 * What the phone's file picker offers per type. The server decides from the bytes alone
 * (apps/api media-sniff): WebM, Ogg, MP4/M4A, MP3, WAV, AMR and AAC sound; MP4, 3GP, QuickTime and
 * WebM video; PDF, Office (OOXML) files, OpenDocument, images and plain text (CSV, TXT) as documents.
 */
export const UploadAccept: Readonly<Record<string, string>> = {
  [QuestionType.audio]: 'audio/*',
  [QuestionType.video]: 'video/*',
  [QuestionType.file]: '.pdf,.csv,.txt,.docx,.xlsx,.pptx,.odt,.ods,.jpg,.jpeg,.png,.webp,application/pdf,text/csv,text/plain',
};
