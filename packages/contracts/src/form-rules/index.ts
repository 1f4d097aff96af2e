export * from './evaluate.js';
export * from './messages.js';
export * from './rules.js';
export * from './values.js';
export * from './response-check.js';
