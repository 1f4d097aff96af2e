import { Limits } from './constants.js';

/** Every user-facing text of spec sections 5 and 8, plus the server's own messages. */
export const Msg = {
  // section 5: validation
  provideEmail: 'Provide email',
  providePassword: 'Provide password',
  tooManyAccounts: "you can't add more than 5 accounts",
  provideFormTitle: 'provide form title',
  questionTextEmpty: 'Question text cannot be empty',
  optionsMinimum: 'Options for "select" and "checkbox" must be minimum of 2.',
  noActiveSurvey: 'No active survey',
  fullNameShort: 'Full name should be at least 3 char.',
  invalidEmail: 'Invalid email address',
  providePhone: 'Provide phone number',
  invalidAccountNumber: 'Provide valid Nigerian account number',
  provideAccountName: 'Provide account name',
  organizationNameShort: 'Organization name should be at least 3 char.',
  passwordsDontMatch: "Passwords don't match",
  provideNewPassword: 'Provide new password',
  provideOldPassword: 'Provide old password',
  passwordDontMatch: "Password don't match",
  fillCompulsory: 'Kindly fill all compulsory fields',
  // the form marks each missing compulsory question with this, under the question
  answerRequired: 'This question is compulsory',
  // section 8: local and behaviour-triggering
  unexpectedError: 'unexpected error',
  errorProcessingImages: 'Error processing images',
  geolocationUnsupported: 'Geolocation is not supported by this browser.',
  authenticationInvalid: 'Authentication invalid',
  invalidOrExpiredToken: 'Invalid or expired token',
  linkExpired: 'link expired, request a new verification link',
  checkEmail: 'Kindly check your email to verify your account',
  // section 8: success
  responseSent: 'response sent!',
  accountVerified: 'account verified',
  accountCreated: 'Account created successfully',
  passwordReset: 'Password reset successfully',
  accountSignedOut: 'account signed out',
  allSessionsSignedOut: 'All sessions signed out',
  verificationResent: 'verification message resent',
  surveyPublished: 'new survey published',
  // server messages the spec leaves to us
  loginSuccess: 'Login successful',
  resetLinkSent: 'If an account exists for this e-mail, a reset link is on its way',
  passwordChanged: 'Password changed',
  wrongCredentials: 'Invalid email or password',
  wrongOldPassword: 'Old password is incorrect',
  resetLinkInvalid: 'link expired, request a new password reset link',
  tooManyRequests: 'Too many attempts, please wait a minute and try again',
  forbidden: 'You do not have access to this resource',
  notFound: 'Not found',
  routeNotFound: 'This API route does not exist',
  payloadTooLarge: 'The upload is too large',
  answerTooLong: `An answer is too long (max ${Limits.maxAnswerLength})`,
  serviceUnavailable: 'The service is busy, please try again shortly',
  exportInProgress: 'Your previous export is still being prepared; wait for it to finish before starting another',
  tooManyAnswers: 'The response has more answers than the survey has questions',
  storageFull: 'The server has run out of storage space, please try again later',
  organizationExists: 'An organization with this e-mail already exists',
  organizationCreated: 'Organization added and its owner invited by e-mail',
  emailTaken: 'An account with this e-mail already exists',
  emailHasOtherRole: 'This e-mail belongs to an account with another role',
  alreadyInvited: 'This person is already invited to this survey',
  fieldUserInvited: 'Field user invited',
  supervisorInvited: 'Supervisor invited',
  supervisorAssigned: 'Supervisor assigned',
  memberWithdrawn: 'Access withdrawn',
  withdrawnFromSurvey: 'Your access to this survey has been withdrawn',
  duplicateQuestion: 'Question texts must be unique within a survey',
  responseConflict: 'A different response was already received under this id',
  /** A fix sent for a response that is not (or no longer) returned to its field user. */
  revisionNotReturned: 'Only a response returned to you for fixing can be sent again',
  /** revisionOf names no response of the caller's on that survey. */
  revisionNotFound: 'Response not found',
  responseReceived: 'response received',
  unsupportedImage: 'Only JPEG, PNG or WebP images are accepted',
  surveyNotFound: 'Survey not found',
  organizationMismatch: 'organization_id does not match the survey',
  imageTooManyPixels: 'The image has too many pixels; send a smaller photo',
  imageNotFound: 'Image not found',
  uploadFieldsMissing: 'Send question, survey_name, organization_name and the image file',
  uploadIncomplete: 'The upload was cut off or malformed; please send it again',
  mailSent: 'Mail sent',
  expiredSaved: 'saved, will send when online',
  savedOnPhone: 'saved on this phone',
  receivedByServer: 'received by the server',
  weekRangeOrder: 'endDate must be after startDate',
  weekRangeTooLong: 'The date range must not exceed one week',
  notReadyStarting: 'Not ready: the server is starting',
  notReadyDraining: 'Not ready: the server is restarting; try again in a moment',
  notReadyDatabase: 'Not ready: the database does not answer',
  notReadyMigrations: 'Not ready: database migrations are not current',
  badResponsesCursor: 'after must be the nextCursor of a responses page',
  surveyClosed: 'This survey is closed',
  surveyUpdated: 'This survey was updated',
  newVersionPublished: 'new version published',
  unknownSurveyVersion: 'This version of the survey does not exist',
  xlsformTooLarge: 'The XLSForm is too large (max 10 MB)',
  xlsformMissing: 'Send the XLSForm as an .xlsx file in the field "file"',
} as const;
export type Msg = (typeof Msg)[keyof typeof Msg];

/** Prefixes the client reacts to (spec section 8). */
export const MSG_PREFIX = {
  linkExpired: 'link expired',
  checkEmail: 'Kindly check your email',
} as const;

/**
 * Photos sent after their responses (issue 19): apart from Msg so the form's chunk, which carries
 * Msg, does not carry them (the sync run and the server use them).
 */
export const PhotoMsg = {
  mismatch: 'The photo differs from its placeholder (size or SHA-256)',
  uploadNotFound: 'Upload not found',
  alreadyAttached: 'Photo already received',
  noPlaceholder: 'No response waits for this photo',
  withRevision: 'A fix sends its photos first, not as placeholders',
} as const;
