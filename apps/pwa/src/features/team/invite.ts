import { InviteFieldUserBody, InviteSupervisorBody, Msg } from '@survey-bird/contracts';

/** The invite forms (spec section 6): every input as typed; `rate` only for field users. */
export interface InviteForm {
  fullName: string;
  email: string;
  phoneNumber: string;
  bank: string;
  accountNumber: string;
  accountName: string;
  rate: string;
  /** A field user who also back-checks other teams' interviews. */
  backchecker?: boolean;
}

/** Rate per response defaults to 0 (spec section 9); the bank select starts on its 'Bank' placeholder. */
export const EMPTY_INVITE: InviteForm = { fullName: '', email: '', phoneNumber: '', bank: '', accountNumber: '', accountName: '', rate: '0' };

export type InviteKind = 'fieldUser' | 'supervisor';

export type Checked<T> = { ok: true; body: T } | { ok: false; msg: string };

/**
 * Spec section 5, in its order: 'No active survey', full name, e-mail, phone, and for supervisors
 * the account number and name. The contracts' schemas are the server's own rules; their issues come
 * in field order, which is the spec's order, so the first one is the message to show.
 */
export function checkInvite(kind: 'fieldUser', surveyId: string | null | undefined, form: InviteForm): Checked<InviteFieldUserBody>;
export function checkInvite(kind: 'supervisor', surveyId: string | null | undefined, form: InviteForm): Checked<InviteSupervisorBody>;
export function checkInvite(kind: InviteKind, surveyId: string | null | undefined, form: InviteForm): Checked<InviteFieldUserBody | InviteSupervisorBody> {
  if (!surveyId) return { ok: false, msg: Msg.noActiveSurvey };
  const common = {
    survey_id: surveyId,
    fullName: form.fullName,
    email: form.email,
    phoneNumber: form.phoneNumber,
    accountNumber: form.accountNumber,
    accountName: form.accountName,
    bank: form.bank,
  };
  const parsed = kind === 'fieldUser'
    ? InviteFieldUserBody.safeParse({ ...common, rate: form.rate.trim() === '' ? 0 : form.rate, ...(form.backchecker ? { backchecker: true } : {}) })
    : InviteSupervisorBody.safeParse(common);
  if (!parsed.success) return { ok: false, msg: parsed.error.issues[0]?.message ?? Msg.unexpectedError };
  return { ok: true, body: parsed.data };
}
