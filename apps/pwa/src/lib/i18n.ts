import { AppLanguages, DEFAULT_LANGUAGE, isAppLanguage, type AppLanguage } from '@survey-bird/contracts';
import { i18n, type Messages } from '@lingui/core';
import { useSyncExternalStore } from 'react';
import { accountKey } from '../session/account-key';
import { activeAccount, subscribeAccounts } from '../session/account-storage';
import { StorageKey } from '../session/storage-keys';

/**
 * The app's language (docs/decisions.md, Languages). Messages are ICU, keyed by stable ids, in
 * gettext catalogs under src/locales/<lang>/messages.po, compiled at build time (i18n/po-plugin.ts):
 * the phone runs @lingui/core (2 KB gzipped) and the one catalog it shows; another catalog is
 * downloaded only when the user picks its language.
 */
type Catalog = Promise<{ messages: Messages }>;
export type CatalogPart = 'form' | 'inputs' | 'responses' | 'earnings' | 'backchecks' | 'bank' | 'map' | 'settings' | 'auth' | 'office' | 'server';
/** Each language's catalog in its parts (i18n/po-plugin.ts partsOf): a chunk each, loaded when needed. */
const catalogs: Record<AppLanguage, Record<'core' | CatalogPart, () => Catalog>> = {
  en: {
    core: () => import('../locales/en/messages.po?part=core'),
    form: () => import('../locales/en/messages.po?part=form'),
    inputs: () => import('../locales/en/messages.po?part=inputs'),
    responses: () => import('../locales/en/messages.po?part=responses'),
    earnings: () => import('../locales/en/messages.po?part=earnings'),
    bank: () => import('../locales/en/messages.po?part=bank'),
    map: () => import('../locales/en/messages.po?part=map'),
    backchecks: () => import('../locales/en/messages.po?part=backchecks'),
    settings: () => import('../locales/en/messages.po?part=settings'),
    auth: () => import('../locales/en/messages.po?part=auth'),
    office: () => import('../locales/en/messages.po?part=office'),
    server: () => import('../locales/en/messages.po?part=server'),
  },
  ha: {
    core: () => import('../locales/ha/messages.po?part=core'),
    form: () => import('../locales/ha/messages.po?part=form'),
    inputs: () => import('../locales/ha/messages.po?part=inputs'),
    responses: () => import('../locales/ha/messages.po?part=responses'),
    earnings: () => import('../locales/ha/messages.po?part=earnings'),
    bank: () => import('../locales/ha/messages.po?part=bank'),
    map: () => import('../locales/ha/messages.po?part=map'),
    backchecks: () => import('../locales/ha/messages.po?part=backchecks'),
    settings: () => import('../locales/ha/messages.po?part=settings'),
    auth: () => import('../locales/ha/messages.po?part=auth'),
    office: () => import('../locales/ha/messages.po?part=office'),
    server: () => import('../locales/ha/messages.po?part=server'),
  },
  yo: {
    core: () => import('../locales/yo/messages.po?part=core'),
    form: () => import('../locales/yo/messages.po?part=form'),
    inputs: () => import('../locales/yo/messages.po?part=inputs'),
    responses: () => import('../locales/yo/messages.po?part=responses'),
    earnings: () => import('../locales/yo/messages.po?part=earnings'),
    bank: () => import('../locales/yo/messages.po?part=bank'),
    map: () => import('../locales/yo/messages.po?part=map'),
    backchecks: () => import('../locales/yo/messages.po?part=backchecks'),
    settings: () => import('../locales/yo/messages.po?part=settings'),
    auth: () => import('../locales/yo/messages.po?part=auth'),
    office: () => import('../locales/yo/messages.po?part=office'),
    server: () => import('../locales/yo/messages.po?part=server'),
  },
  ig: {
    core: () => import('../locales/ig/messages.po?part=core'),
    form: () => import('../locales/ig/messages.po?part=form'),
    inputs: () => import('../locales/ig/messages.po?part=inputs'),
    responses: () => import('../locales/ig/messages.po?part=responses'),
    earnings: () => import('../locales/ig/messages.po?part=earnings'),
    bank: () => import('../locales/ig/messages.po?part=bank'),
    map: () => import('../locales/ig/messages.po?part=map'),
    backchecks: () => import('../locales/ig/messages.po?part=backchecks'),
    settings: () => import('../locales/ig/messages.po?part=settings'),
    auth: () => import('../locales/ig/messages.po?part=auth'),
    office: () => import('../locales/ig/messages.po?part=office'),
    server: () => import('../locales/ig/messages.po?part=server'),
  },
  pcm: {
    core: () => import('../locales/pcm/messages.po?part=core'),
    form: () => import('../locales/pcm/messages.po?part=form'),
    inputs: () => import('../locales/pcm/messages.po?part=inputs'),
    responses: () => import('../locales/pcm/messages.po?part=responses'),
    earnings: () => import('../locales/pcm/messages.po?part=earnings'),
    bank: () => import('../locales/pcm/messages.po?part=bank'),
    map: () => import('../locales/pcm/messages.po?part=map'),
    backchecks: () => import('../locales/pcm/messages.po?part=backchecks'),
    settings: () => import('../locales/pcm/messages.po?part=settings'),
    auth: () => import('../locales/pcm/messages.po?part=auth'),
    office: () => import('../locales/pcm/messages.po?part=office'),
    server: () => import('../locales/pcm/messages.po?part=server'),
  },
};

interface Stored {
  device?: AppLanguage;
  accounts?: Record<string, AppLanguage>;
  /** Accounts whose choice the server has not heard yet (chosen offline): sent at the next GET /user. */
  pending?: string[];
  /** Picked while signed out (the sign-in page): the account that signs in next takes it. */
  nextSignIn?: AppLanguage;
}

function readStored(): Stored {
  try {
    const v = JSON.parse(localStorage.getItem(StorageKey.appLanguage) ?? '{}') as Stored;
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

function writeStored(next: Stored): void {
  try {
    localStorage.setItem(StorageKey.appLanguage, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the choice holds for this page.
  }
}

/** The browser's first preferred language that is one of ours (`ha-NG` counts as `ha`). */
export function browserLanguage(prefs: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]): AppLanguage | undefined {
  for (const p of prefs) {
    const base = p.toLowerCase().split('-')[0];
    if (isAppLanguage(base)) return base;
  }
  return undefined;
}

/** What to show first: the active account's language, else this browser's last choice, else the browser's own when it is ours. */
export function initialLanguage(): AppLanguage {
  const stored = readStored();
  const account = activeAccount();
  const ofAccount = account ? stored.accounts?.[accountKey(account.email)] : undefined;
  return [ofAccount, stored.device, browserLanguage()].find(isAppLanguage) ?? DEFAULT_LANGUAGE;
}

/**
 * Intl's locale for a language: `ha-NG`, `yo-NG`, `ig-NG` where the runtime has their data, else
 * `en-NG` (Chromium has no `pcm`; older WebViews lack ha, yo, ig): naira, dates and numbers read
 * as in Nigeria either way.
 */
export function formatLocale(lang: AppLanguage = current()): string {
  const tag = `${lang}-NG`;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0 ? tag : 'en-NG';
  } catch {
    return 'en-NG';
  }
}

const current = (): AppLanguage => (isAppLanguage(i18n.locale) ? i18n.locale : DEFAULT_LANGUAGE);

/** Parts of the active language loaded so far (`core` always; the others once a route asked). */
const loadedParts = new Set<CatalogPart>();
let activating: Promise<void> | undefined;

/**
 * Loads a language's catalog and makes it the app's: its `core` part before the screen shows, the
 * parts loaded for the previous language again, and the server's messages right after (a reply
 * shows its English `msg` until they are in).
 */
export async function activateLanguage(lang: AppLanguage): Promise<void> {
  if (i18n.locale === lang) return activating;
  const parts = await Promise.all([catalogs[lang].core(), ...[...loadedParts].map((p) => catalogs[lang][p]())]);
  i18n.loadAndActivate({ locale: lang, locales: [formatLocale(lang), 'en-NG'], messages: Object.assign({}, ...parts.map((p) => p.messages)) as Messages });
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  if (!loadedParts.has('server')) void loadPart('server');
}

/** Adds a part of the active language's catalog (a route waits for its part: routes/router.tsx). */
export function loadPart(part: CatalogPart): Promise<void> {
  const lang = current();
  loadedParts.add(part);
  activating = catalogs[lang][part]().then(({ messages }) => {
    // Merged into the language's messages; `change` renders the screens using them again.
    if (i18n.locale === lang) i18n.load(lang, messages);
  });
  return activating;
}

/**
 * The user's choice: shown at once and remembered on this phone, for the signed-in account when
 * there is one (marked pending until the server has it: `markSent`).
 */
export async function chooseLanguage(lang: AppLanguage, email?: string): Promise<void> {
  const stored = readStored();
  const account = email ?? activeAccount()?.email;
  const key = account ? accountKey(account) : undefined;
  writeStored({
    device: lang,
    accounts: { ...stored.accounts, ...(key ? { [key]: lang } : {}) },
    pending: key ? [...new Set([...(stored.pending ?? []), key])] : stored.pending,
    nextSignIn: key ? undefined : lang,
  });
  await activateLanguage(lang);
}

/** The server now holds the account's choice. */
export function markSent(email: string): void {
  const stored = readStored();
  writeStored({ ...stored, pending: (stored.pending ?? []).filter((k) => k !== accountKey(email)) });
}

/**
 * The server's word on an account's language (GET /user). A choice made on this phone that the
 * server has not heard yet wins: the answer is the language to send it (PATCH /user/language).
 */
export function adoptAccountLanguage(email: string, lang: unknown): AppLanguage | undefined {
  const key = accountKey(email);
  const picked = readStored().nextSignIn;
  if (picked) {
    // The language picked on the sign-in page is the user's latest word: the account takes it.
    const before = readStored();
    writeStored({ ...before, nextSignIn: undefined, accounts: { ...before.accounts, [key]: picked }, pending: [...new Set([...(before.pending ?? []), key])] });
  }
  const stored = readStored();
  const local = stored.accounts?.[key];
  if (local && stored.pending?.includes(key)) return local === lang ? (markSent(email), undefined) : local;
  if (!isAppLanguage(lang)) return undefined;
  if (local !== lang) writeStored({ ...stored, accounts: { ...stored.accounts, [key]: lang } });
  const active = activeAccount();
  if (active && accountKey(active.email) === key) void activateLanguage(lang);
  return undefined;
}

// Switching accounts shows the new account's language.
subscribeAccounts(() => {
  const active = activeAccount();
  const lang = active ? readStored().accounts?.[accountKey(active.email)] : undefined;
  if (lang && lang !== i18n.locale) void activateLanguage(lang);
});

/** The message of an id in the active language; `values` fill its ICU placeholders. */
export function t(id: string, values?: Record<string, unknown>): string {
  return i18n._(id, values);
}

/** True when the active catalog holds an id (a server `code` is translated only when it does). */
export function hasMessage(id: string): boolean {
  return i18n.messages[id] !== undefined;
}

/** A server reply's words in the user's language: the catalog's text for its `code`, else its `msg`. */
export function serverText(msg: string, code?: string): string {
  // English shows the server's own words: they are the spec's, and often more precise than a code's catalog text.
  if (i18n.locale === 'en' || !code || !hasMessage(`msg.${code}`)) return msg;
  return t(`msg.${code}`);
}

/** Bumped on every change (a language, a part of its catalog), so components read `t` again. */
let version = 0;
i18n.on('change', () => void version++);
const subscribe = (listener: () => void) => i18n.on('change', listener);
const snapshot = () => `${i18n.locale}#${version}`;

/** The active language; a component using it renders again when the language changes. */
export function useLanguage(): AppLanguage {
  useSyncExternalStore(subscribe, snapshot, snapshot);
  return current();
}

/** `t` for a component: the component renders again in the new language when it changes. */
export function useT(): typeof t {
  useLanguage();
  return t;
}

export { AppLanguages };

/** An id kept for later (a table of labels): extraction finds it here, `t(id)` translates it where shown. */
export const msgId = <const I extends string>(id: I): I => id;
