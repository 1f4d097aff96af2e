import { AppLanguages, isAppLanguage, type AppLanguage } from '@survey-bird/contracts';
import { useId } from 'react';
import { api } from '../api';
import { chooseLanguage, markSent, useLanguage, useT } from '../lib/i18n';
import { activeAccount } from '../session/account-storage';

/** Each language's name in itself. */
const LANGUAGE_NAMES: Record<AppLanguage, string> = {
  en: 'English',
  ha: 'Hausa',
  yo: 'Yorùbá',
  ig: 'Igbo',
  pcm: 'Naijá (Pidgin)',
};

/**
 * The app's language: shown at once, remembered on this phone and, when signed in, on the server
 * (so mails follow it). Offline, the server hears it at the next GET /user (lib/i18n.ts). Each
 * language is named in itself, so a user who cannot read the current one still finds theirs.
 */
export function LanguagePicker({ className = '', signedIn = true }: { className?: string; signedIn?: boolean }) {
  const t = useT();
  const lang = useLanguage();
  const id = useId();
  async function change(value: string) {
    if (!isAppLanguage(value)) return;
    const account = signedIn ? activeAccount() : undefined;
    await chooseLanguage(value, account?.email);
    if (account) {
      await api.call('setLanguage', { token: account.token, body: { language: value }, handleErrors: false }).then(() => markSent(account.email), () => undefined);
    }
  }
  return (
    <div className={`language-picker ${className}`}>
      <label htmlFor={id}>{t('language.label')}</label>
      <select id={id} value={lang} onChange={(e) => void change(e.target.value)}>
        {AppLanguages.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}

export default LanguagePicker;
