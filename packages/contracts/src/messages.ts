import { Limits } from './constants.js';
import type { ApiMsg } from './api-messages.js';

/** Every user-facing text of spec sections 5 and 8, plus the server's own messages. */
export const Msg = {
  // section 5: validation
  provideEmail: 'Provide email',
  tooManyAccounts: "you can't add more than 5 accounts",
  provideFormTitle: 'provide form title',
  noActiveSurvey: 'No active survey',
  passwordsDontMatch: "Passwords don't match",
  provideNewPassword: 'Provide new password',
  passwordDontMatch: "Password don't match",
  // a new password's rule (NIST SP 800-63B); the server also refuses common ones (ApiMsg.commonPassword)
  passwordTooShort: `Password must be at least ${Limits.minPassword} characters`,
  fillCompulsory: 'Kindly fill all compulsory fields',
  // the form marks each missing compulsory question with this, under the question
  answerRequired: 'This question is compulsory',
  // section 8: local and behaviour-triggering
  unexpectedError: 'unexpected error',
  errorProcessingImages: 'Error processing images',
  geolocationUnsupported: 'Geolocation is not supported by this browser.',
  authenticationInvalid: 'Authentication invalid',
  invalidOrExpiredToken: 'Invalid or expired token',
  // section 8: success
  responseSent: 'response sent!',
  accountCreated: 'Account created successfully',
  accountSignedOut: 'account signed out',
  allSessionsSignedOut: 'All sessions signed out',
  surveyPublished: 'new survey published',
  payloadTooLarge: 'The upload is too large',
  answerTooLong: `An answer is too long (max ${Limits.maxAnswerLength})`,
  duplicateQuestion: 'Question texts must be unique within a survey',
  uploadIncomplete: 'The upload was cut off or malformed; please send it again',
  expiredSaved: 'saved, will send when online',
  savedOnPhone: 'saved on this phone',
  receivedByServer: 'received by the server',
  surveyClosed: 'This survey is closed',
  surveyUpdated: 'This survey was updated',
} as const;

export type Msg = (typeof Msg)[keyof typeof Msg] | (typeof ApiMsg)[keyof typeof ApiMsg];

/** Prefixes the client reacts to (spec section 8). */
export const MSG_PREFIX = {
  linkExpired: 'link expired',
  checkEmail: 'Kindly check your email',
} as const;

/**
 * Photos sent after their responses: apart from Msg so the form's chunk, which carries
 * Msg, does not carry them (the sync run and the server use them).
 */
export const PhotoMsg = {
  mismatch: 'The photo differs from its placeholder (size or SHA-256)',
  uploadNotFound: 'Upload not found',
  alreadyAttached: 'Photo already received',
  noPlaceholder: 'No response waits for this photo',
  withRevision: 'A fix sends its photos first, not as placeholders',
  /** Creating a resumable upload past the caller's cap on bytes held in unfinished uploads (413). */
  unfinishedUploadsFull: 'Too many unfinished photo uploads: let them finish, or cancel one, before starting another',
} as const;
