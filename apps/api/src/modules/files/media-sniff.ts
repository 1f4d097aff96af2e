import { QuestionType } from '@survey-bird/contracts';
import { sniffImage, type ReadAt } from './image-sniff.js';

/**
 * What an uploaded recording, video or document really is, from its bytes alone (the declared
 * type and name are the client's word and ignored), and whether the question's type takes it.
 * Only kinds a browser or office program opens safely are kept: never HTML, SVG or scripts, which
 * served from our origin would run as our pages.
 */
export interface MediaInfo {
  mime: string;
  ext: string;
}

const HEAD_BYTES = 4096;

/** The kind of a sound, video or document file, or null when the question's type does not take it. */
export async function sniffMedia(type: string, readAt: ReadAt): Promise<MediaInfo | null> {
  const head = await readAt(0, HEAD_BYTES);
  const found = kindOf(head) ?? (type === QuestionType.file ? await imageOrText(head, readAt) : null);
  if (!found) return null;
  if (type === QuestionType.audio) return found.family === 'audio' || found.family === 'av' ? { mime: found.audio ?? found.mime, ext: found.audioExt ?? found.ext } : null;
  if (type === QuestionType.video) return found.family === 'video' || found.family === 'av' ? { mime: found.mime, ext: found.ext } : null;
  if (type === QuestionType.file) return found.family === 'document' || found.family === 'image' ? { mime: found.mime, ext: found.ext } : null;
  return null;
}

interface Found extends MediaInfo {
  /** `av`: a container holding sound or video (MP4, WebM), told apart only by its tracks. */
  family: 'audio' | 'video' | 'av' | 'document' | 'image';
  /** The sound's type when an `av` container is taken as a recording. */
  audio?: string;
  audioExt?: string;
}

const ascii = (b: Buffer, from: number, to: number) => b.toString('latin1', from, to);

function kindOf(b: Buffer): Found | null {
  if (b.length < 4) return null;
  // EBML (Matroska/WebM): a browser's MediaRecorder records sound and video in it.
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return { family: 'av', mime: 'video/webm', ext: 'webm', audio: 'audio/webm', audioExt: 'webm' };
  if (ascii(b, 0, 4) === 'OggS') return { family: 'audio', mime: 'audio/ogg', ext: 'ogg' };
  if (ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe6) === 0xe2)) return { family: 'audio', mime: 'audio/mpeg', ext: 'mp3' };
  if (b[0] === 0xff && (b[1]! & 0xf6) === 0xf0) return { family: 'audio', mime: 'audio/aac', ext: 'aac' };
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WAVE') return { family: 'audio', mime: 'audio/wav', ext: 'wav' };
  if (ascii(b, 0, 5) === '#!AMR') return { family: 'audio', mime: 'audio/amr', ext: 'amr' };
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (brand === 'M4A ' || brand === 'M4B ') return { family: 'audio', mime: 'audio/mp4', ext: 'm4a' };
    if (brand.startsWith('3g')) return { family: 'av', mime: 'video/3gpp', ext: '3gp', audio: 'audio/3gpp', audioExt: '3gp' };
    if (brand === 'qt  ') return { family: 'video', mime: 'video/quicktime', ext: 'mov' };
    return { family: 'av', mime: 'video/mp4', ext: 'mp4', audio: 'audio/mp4', audioExt: 'm4a' };
  }
  if (ascii(b, 0, 5) === '%PDF-') return { family: 'document', mime: 'application/pdf', ext: 'pdf' };
  if (b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return zipped(b);
  return null;
}

/**
 * An Office (OOXML) or OpenDocument file by the names in its zip: OpenDocument stores `mimetype`
 * first, uncompressed; OOXML's first entries name `word/`, `xl/` or `ppt/` within the first 4 KB.
 * Any other zip is refused (an archive could carry anything).
 */
function zipped(b: Buffer): Found | null {
  const text = ascii(b, 0, b.length);
  const od = /^mimetype(application\/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation))/.exec(ascii(b, 30, Math.min(b.length, 120)));
  if (od) return { family: 'document', mime: od[1]!, ext: od[2] === 'text' ? 'odt' : od[2] === 'spreadsheet' ? 'ods' : 'odp' };
  if (text.includes('word/')) return { family: 'document', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' };
  if (text.includes('xl/')) return { family: 'document', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' };
  if (text.includes('ppt/')) return { family: 'document', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx' };
  return null;
}

/** A photo (JPEG, PNG, WebP) or plain UTF-8 text (CSV, TXT) without NUL bytes or markup at its start. */
async function imageOrText(head: Buffer, readAt: ReadAt): Promise<Found | null> {
  const image = await sniffImage(readAt);
  if (image) return { family: 'image', mime: image.mime, ext: image.ext };
  if (head.length === 0 || head.includes(0)) return null;
  // A cut at the end of the sample may split a character: decode only whole ones.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (text.slice(0, -1).includes('\uFFFD')) return null;
  if (/^\s*</.test(text)) return null;
  return { family: 'document', mime: 'text/plain; charset=utf-8', ext: 'txt' };
}
