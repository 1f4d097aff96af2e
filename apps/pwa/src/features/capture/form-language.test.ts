import { describe, expect, it } from 'vitest';
import { accountKey } from '../../session/account-key';
import { StorageKey } from '../../session/storage-keys';
import { languageFor, rememberedLanguage, rememberLanguage } from './form-language';

const form = { languages: [{ code: 'en', label: 'English' }, { code: 'ha', label: 'Hausa' }], defaultLanguage: 'en' };

describe('the form language', () => {
  it('opens in the remembered language when offered, else the default, else the first', () => {
    expect(languageFor(form, 'ha')).toBe('ha');
    expect(languageFor(form, 'yo')).toBe('en');
    expect(languageFor({ languages: form.languages }, undefined)).toBe('en');
    expect(languageFor({ languages: [...form.languages].reverse() }, undefined)).toBe('ha');
    expect(languageFor({}, 'ha')).toBeUndefined();
  });

  it('is remembered per account in the one registered key', () => {
    const ada = accountKey('ada@field.ng');
    const bala = accountKey('bala@field.ng');
    rememberLanguage(ada, 'ha');
    expect(rememberedLanguage(ada)).toBe('ha');
    expect(rememberedLanguage(bala)).toBeUndefined();
    expect(JSON.parse(localStorage.getItem(StorageKey.formLanguage) ?? '{}')).toMatchObject({ [ada]: 'ha' });
  });
});
