/**
 * The stored answer of a photo question whose response arrived before its photo: the
 * export writes it as is, the office's table and detail show PENDING_PHOTO_LABEL in place of the link.
 */
export const PENDING_PHOTO_ANSWER = 'pending upload';
export const PENDING_PHOTO_LABEL = 'photo uploading';

// Not in constants.ts: the field user's form loads that module, and these are the office's and the server's.
