import { afterEach, describe, expect, it } from 'vitest';
import { adoptAccountLanguage, chooseLanguage, markSent } from './i18n';

afterEach(() => localStorage.clear());

describe('the language an account signs in with', () => {
  it('takes the language picked on the sign-in page over the server\'s, and says to send it', async () => {
    await chooseLanguage('ha');
    expect(adoptAccountLanguage('ada@example.ng', 'en')).toBe('ha');
    markSent('ada@example.ng');
    // Sent: the server's word counts again from now on, and the pick applied to one sign-in only.
    expect(adoptAccountLanguage('ada@example.ng', 'ha')).toBeUndefined();
    expect(adoptAccountLanguage('bola@example.ng', 'en')).toBeUndefined();
  });

  it('follows the server when nothing was picked on this phone', () => {
    expect(adoptAccountLanguage('ada@example.ng', 'yo')).toBeUndefined();
  });
});
