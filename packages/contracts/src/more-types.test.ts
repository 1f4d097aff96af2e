import { describe, expect, it } from 'vitest';
import { answerIssues, checkFormOf } from './form-rules/response-check.js';
import { withQuestionIds } from './form-rules/question-ids.js';
import { FormMsg } from './form-engine/messages.js';
import { closedRing, formatGeoPoints, geoMeasure, geoProblem, GeoMsg, MAX_GEO_POINTS, parseGeoPoints, shapeArea, traceLength } from './geo.js';
import { MAX_UPLOAD_BYTES, uploadCap, UploadCaps } from './media.js';
import { Limits } from './constants.js';
import { OPTION_QUESTION_TYPES, QuestionType, UPLOAD_QUESTION_TYPES } from './question-types.js';
import { CreateSurveyBody, questionProblem } from './schemas/survey.js';
import { PhotoPlaceholder } from './schemas/response.js';

// 0.0009 degrees of latitude is 100.2 m; at the equator 0.0009 degrees of longitude is 100.2 m too.
const SQUARE = '0 0 0 0;0 0.0009 0 0;0.0009 0.0009 0 0;0.0009 0 0 0;0 0 0 0';

describe('geotrace and geoshape answers (geo.ts)', () => {
  it('reads ODK points: lat lng [alt [acc]], separated by ";", a trailing ";" allowed', () => {
    expect(parseGeoPoints('9.05 7.49 420 5;9.06 7.5;')).toEqual([{ lat: 9.05, lng: 7.49, alt: 420, acc: 5 }, { lat: 9.06, lng: 7.5, alt: 0, acc: 0 }]);
    expect(parseGeoPoints('9.05')).toBe(GeoMsg.point);
    expect(parseGeoPoints('9.05 abc')).toBe(GeoMsg.point);
    expect(parseGeoPoints('91 7')).toBe(GeoMsg.range);
    expect(parseGeoPoints('9 -181')).toBe(GeoMsg.range);
  });

  it('refuses a trace of fewer than 2 points and an area of fewer than 3, or not closed', () => {
    expect(geoProblem('9 7', false)).toBe(GeoMsg.tracePoints);
    expect(geoProblem('9 7;9.001 7', false)).toBeNull();
    expect(geoProblem('9 7;9.001 7;9 7', true)).toBe(GeoMsg.shapePoints);
    expect(geoProblem('9 7;9.001 7;9.001 7.001;9.002 7.003', true)).toBe(GeoMsg.shapeClosed);
    expect(geoProblem(SQUARE, true)).toBeNull();
    expect(geoProblem(Array.from({ length: MAX_GEO_POINTS + 1 }, (_, i) => `9 ${7 + i / 1e4}`).join(';'), false)).toBe(GeoMsg.tooMany);
  });

  it('measures a 100 m square: 400 m around and 10,000 m² inside (within 0.5%)', () => {
    const points = parseGeoPoints(SQUARE) as ReturnType<typeof closedRing>;
    expect(traceLength(points)).toBeCloseTo(400.8, 0);
    expect(shapeArea(points) / 10_036).toBeCloseTo(1, 2);
    expect(geoMeasure(SQUARE, true)).toBeGreaterThan(9_990);
    expect(geoMeasure('0 0;0 0.0009', false)).toBeCloseTo(100.2, 0);
    expect(geoMeasure('bad', false)).toBeUndefined();
  });

  it('writes the most points an answer can hold within an answer\'s length', () => {
    const far = Array.from({ length: MAX_GEO_POINTS }, () => ({ lat: -89.123456, lng: -179.123456, alt: -1234.5, acc: 9999.9 }));
    expect(formatGeoPoints(far).length).toBeLessThanOrEqual(Limits.maxAnswerLength);
    expect(formatGeoPoints(closedRing([{ lat: 1, lng: 2, alt: 0, acc: 0 }, { lat: 1, lng: 3, alt: 0, acc: 0 }]))).toBe('1 2 0 0;1 3 0 0;1 2 0 0');
  });
});

describe('upload caps and types (media.ts)', () => {
  it('caps each upload type, the largest bounding the routes and placeholders', () => {
    expect(UPLOAD_QUESTION_TYPES).toEqual(expect.arrayContaining([QuestionType.audio, QuestionType.video, QuestionType.file, QuestionType.image]));
    expect(uploadCap(QuestionType.image)).toBe(Limits.maxImageBytes);
    expect(uploadCap(QuestionType.video)).toBe(MAX_UPLOAD_BYTES);
    expect(Object.values(UploadCaps).every((c) => c <= MAX_UPLOAD_BYTES)).toBe(true);
    expect(PhotoPlaceholder.safeParse({ question: 'Clip', clientId: '0190c2a4-5b6e-7f00-8000-000000000001', size: uploadCap(QuestionType.video), sha256: 'a'.repeat(64) }).success).toBe(true);
    expect(PhotoPlaceholder.safeParse({ question: 'Clip', clientId: '0190c2a4-5b6e-7f00-8000-000000000001', size: MAX_UPLOAD_BYTES + 1, sha256: 'a'.repeat(64) }).success).toBe(false);
  });

  it('takes a rank like a select: at least 2 options', () => {
    expect(OPTION_QUESTION_TYPES).toContain(QuestionType.rank);
    expect(questionProblem({ text: 'Order', type: QuestionType.rank, options: ['Water'] })).not.toBeNull();
    expect(questionProblem({ text: 'Order', type: QuestionType.rank, options: ['Water', 'Roads'] })).toBeNull();
  });
});

const FORM = CreateSurveyBody.parse({
  title: 'Farm',
  questions: [
    { text: 'Path walked', type: 'geotrace' },
    { text: 'Plot', type: 'geoshape' },
    { text: 'Priorities', type: 'rank', options: ['Water', 'Roads', 'Schools'] },
    { text: 'Interview', type: 'audio', compulsory: false },
    { text: 'Walk-through', type: 'video', compulsory: false },
    { text: 'Title deed', type: 'file', compulsory: false },
  ],
}).questions;
const check = checkFormOf(withQuestionIds(FORM));
const refusals = (answers: Record<string, unknown>) => [...answerIssues(check, answers as never, new Date(), 'server')].map((i) => i.refusal);
const GOOD = { 'Path walked': '9 7;9.001 7.001', Plot: SQUARE, Priorities: ['Roads', 'Water', 'Schools'] };

describe('the engine on the new types (server mode)', () => {
  it('accepts a valid line, area and ranking, and uploads answered by their references', () => {
    expect(refusals(GOOD)).toEqual([]);
    expect(refusals({ ...GOOD, Interview: 'https://x.test/api/v1/files/image/abc', 'Title deed': 'pending upload' })).toEqual([]);
  });

  it('refuses a line of one point, an open area and coordinates out of range, naming the question', () => {
    expect(refusals({ ...GOOD, 'Path walked': '9 7' })).toEqual([`"Path walked": ${GeoMsg.tracePoints}`]);
    expect(refusals({ ...GOOD, Plot: '0 0;0 0.0009;0.0009 0.0009;0.0009 0' })).toEqual([`"Plot": ${GeoMsg.shapeClosed}`]);
    expect(refusals({ ...GOOD, Plot: '0 0;0 200;0.0009 0.0009;0 0' })).toEqual([`"Plot": ${GeoMsg.range}`]);
  });

  it('refuses a ranking that leaves a choice out, repeats one, names another or is not a list', () => {
    expect(refusals({ ...GOOD, Priorities: ['Roads', 'Water'] })).toEqual([`"Priorities": ${FormMsg.rankAll}`]);
    expect(refusals({ ...GOOD, Priorities: ['Roads', 'Roads', 'Water'] })).toEqual([`"Priorities": ${FormMsg.rankOnce}`]);
    expect(refusals({ ...GOOD, Priorities: ['Roads', 'Water', 'Bridges'] })[0]).toMatch(/^"Priorities": /);
    expect(refusals({ ...GOOD, Priorities: 'Roads Water Schools' })).toEqual([`"Priorities": ${FormMsg.listShape}`]);
  });
});
