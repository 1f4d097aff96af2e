/**
 * Which account a stored row belongs to: the e-mail trimmed and lower-cased, so 'Ada@X.ng ' and
 * 'ada@x.ng' share one outbox. Branded, so a raw e-mail cannot be passed where a key is expected;
 * `accountKey` is the only way to make one.
 */
export type AccountKey = string & { readonly __brand: 'AccountKey' };

export const accountKey = (email: string): AccountKey => email.trim().toLowerCase() as AccountKey;
