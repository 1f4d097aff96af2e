import type { Survey } from '@survey-bird/contracts';
import { useEffect, useId, useState } from 'react';
import { confirmDialog } from '../../lib/dialog-store';
import { toast } from '../../lib/toast-store';
import { Spinner } from '../../ui/Spinner';
import { saveBlob } from '../insight/download';
import './e2e.css';

/** A passphrase guards the key file offline against guessing: at least this long (with 600,000 PBKDF2 rounds). */
const MIN_PASSPHRASE = 12;

/**
 * The survey settings' end-to-end encryption: makes the key pair in this browser, downloads the
 * private key locked with a passphrase, then gives the survey the public key (`save`). The
 * private key and the passphrase never leave the browser.
 */
export function EncryptionSettings({ survey, busy, save }: { survey: Survey; busy: boolean; save: (encryptionKey: string | null, done: string) => Promise<void> }) {
  const [making, setMaking] = useState(false);
  const [open, setOpen] = useState(false);
  const [pass, setPass] = useState({ one: '', two: '' });
  const [kid, setKid] = useState<string | null>(null);
  const ids = { one: useId(), two: useId() };
  const on = Boolean(survey.encryptionKey);

  useEffect(() => {
    if (!survey.encryptionKey) return;
    let live = true;
    void import('@survey-bird/contracts/e2e').then(({ keyIdOf }) => keyIdOf(survey.encryptionKey!)).then((k) => live && setKid(k));
    return () => {
      live = false;
    };
  }, [survey.encryptionKey]);

  async function create() {
    if (pass.one.length < MIN_PASSPHRASE) return toast.error(`The passphrase needs at least ${MIN_PASSPHRASE} characters`);
    if (pass.one !== pass.two) return toast.error('The two passphrases differ');
    setMaking(true);
    try {
      const { generateSurveyKeys, lockPrivateKey } = await import('@survey-bird/contracts/e2e');
      const keys = await generateSurveyKeys();
      const file = await lockPrivateKey(keys.privateKey, keys.publicKey, pass.one);
      saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), `${survey.title.replace(/[^\w-]+/g, '_')}_key_${file.kid.slice(0, 8)}.json`);
      setPass({ one: '', two: '' });
      setOpen(false);
      await save(keys.publicKey, 'Encryption on: keep the key file and its passphrase safe');
    } finally {
      setMaking(false);
    }
  }

  async function turnOff() {
    const yes = await confirmDialog({
      title: 'Turn end-to-end encryption off?',
      body: 'Responses sent from now on reach the server in clear (phones pick this up at their next survey refresh). Responses already encrypted stay encrypted: keep the key file to read them.',
      action: 'Turn off',
      cancel: 'Cancel',
      tone: 'danger',
    });
    if (yes) await save(null, 'Encryption off for new responses');
  }

  return (
    <fieldset className="survey-settings__group">
      <legend>End-to-end encryption</legend>
      {on ? (
        <>
          <p><strong>On</strong>{kid && <> with key <span className="e2e-settings__key">{kid}</span></>}: phones encrypt answers so that only the key file opens them.</p>
          <p className="form__hint">Without the key file and its passphrase nobody, not even Survey Bird, can read these answers. Search and charts over answers are not available.</p>
          <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy || making} onClick={() => void turnOff()}>Turn off</button>
        </>
      ) : open ? (
        <>
          <p className="form__hint">A key pair is made in this browser. The private key is downloaded as a file locked with this passphrase; the server only gets the public key. Losing either means losing the answers.</p>
          <div className="field">
            <label htmlFor={ids.one}>Passphrase (at least {MIN_PASSPHRASE} characters)</label>
            <input id={ids.one} type="password" autoComplete="new-password" value={pass.one} onChange={(e) => setPass((p) => ({ ...p, one: e.target.value }))} />
          </div>
          <div className="field">
            <label htmlFor={ids.two}>Passphrase again</label>
            <input id={ids.two} type="password" autoComplete="new-password" value={pass.two} onChange={(e) => setPass((p) => ({ ...p, two: e.target.value }))} />
          </div>
          <div className="e2e-panel__row">
            <button type="button" className="btn btn--primary btn--sm" disabled={busy || making} onClick={() => void create()}>{making && <Spinner label="Making the key" />} Create key and turn on</button>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(false)}>Cancel</button>
          </div>
        </>
      ) : (
        <>
          <p><strong>Off</strong>: answers reach the server in clear (over HTTPS) and can be searched and charted.</p>
          <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => setOpen(true)}>Turn on…</button>
        </>
      )}
    </fieldset>
  );
}
