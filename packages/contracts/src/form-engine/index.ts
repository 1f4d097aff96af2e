/**
 * The form engine: one pure function of a survey version and its answers (relevance, requirements,
 * calculations, constraints, choice filters, repeat counts), used by the phone, the builder's
 * preview and the API. Zod-free, so the phone's form route carries it without the schemas.
 */
export { compileForm, usesModel, type CompiledForm, type EngineQuestion, type FormExpr, type FormNode } from './model.js';
export { answersById, answersByText, formState, stateKey, substitute, translated, type FormContext, type FormState, type QuestionState, type ResponseIssue } from './state.js';
export { FormMsg } from './messages.js';
export { answerScopes, formStructureProblems, EXPRESSION_FIELDS, type StructureProblem, type StructureQuestion } from './structure.js';
export { isChoiceList, isRepeatAnswer, repeatSummary } from '../answer-of.js';
export { placedAnswers, resolvePathKey, type PlacedAnswer } from './answer-paths.js';
export { holderAt, locatePathKey, pathKey, putAnswer, type AnswerPath } from '../answer-of.js';
export { geoMeasure, geoProblem, parseGeoPoints, geoJsonCoordinates, closedRing, type GeoPoint } from '../geo.js';
export { formatGeoPoints, traceLength, shapeArea, MAX_GEO_POINTS } from '../geo.js';
