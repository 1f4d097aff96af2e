import type { AccountKey } from '../../session/account-key';
import { StorageKey } from '../../session/storage-keys';
import { createStore } from '../../lib/store';

/**
 * The language a field user reads forms in, remembered per account (not per survey: someone who
 * reads Hausa picks it once, and every form that offers Hausa opens in it). A form that does not
 * offer the remembered language opens in its default language, else its first.
 */

type Remembered = Record<string, string>;

function readAll(): Remembered {
  try {
    const raw = localStorage.getItem(StorageKey.formLanguage);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Remembered) : {};
  } catch {
    return {};
  }
}

/** Changes when any account's choice does, so every open form follows a switch made in another. */
export const formLanguages = createStore<Remembered>(readAll());

export function rememberedLanguage(account: AccountKey): string | undefined {
  const code = formLanguages.get()[account];
  return typeof code === 'string' ? code : undefined;
}

export function rememberLanguage(account: AccountKey, code: string): void {
  const next = { ...formLanguages.get(), [account]: code };
  formLanguages.set(next);
  try {
    localStorage.setItem(StorageKey.formLanguage, JSON.stringify(next));
  } catch {
    // A full or blocked storage: the choice holds until the page closes.
  }
}

export interface FormLanguages {
  languages?: readonly { code: string; label: string }[] | undefined;
  defaultLanguage?: string | undefined;
}

/** The language a form opens in: the remembered one when the form offers it, else its default, else its first; undefined when it has none. */
export function languageFor(form: FormLanguages, remembered: string | undefined): string | undefined {
  const codes = (form.languages ?? []).map((l) => l.code);
  if (codes.length === 0) return form.defaultLanguage;
  if (remembered !== undefined && codes.includes(remembered)) return remembered;
  if (form.defaultLanguage !== undefined && codes.includes(form.defaultLanguage)) return form.defaultLanguage;
  return codes[0];
}
