import type { ResponseRow, RouteName, Survey } from '@survey-bird/contracts';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { Spinner } from '../../ui/Spinner';
import { saveBlob } from '../insight/download';
import { setOpenedKey, useOpenedKey } from './key-store';
import { openRows } from './open-answers';
import './e2e.css';

type ResponsesRoute = Extract<RouteName, 'organizationResponses' | 'supervisorResponses'>;

/**
 * Above an encrypted survey's responses: says what the server cannot do with sealed answers, opens
 * the survey's key file with its passphrase (in this tab's memory only), and exports every
 * response decrypted as CSV made in the browser.
 */
export function EncryptedPanel({ survey, route, rows, onOpened }: { survey: Survey; route: ResponsesRoute; rows: ResponseRow[]; onOpened: (opened: { from: ResponseRow[]; rows: ResponseRow[] } | null) => void }) {
  const key = useOpenedKey();
  useEffect(() => {
    if (!key || !rows.some((r) => r.encrypted)) return onOpened(null);
    let live = true;
    void openRows(key, rows).then((done) => live && onOpened({ from: rows, rows: done }));
    return () => {
      live = false;
    };
  }, [key, rows, onOpened]);
  const [busy, setBusy] = useState<'open' | 'export' | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [passphrase, setPassphrase] = useState('');
  const ids = { file: useId(), pass: useId() };

  async function open(e: FormEvent) {
    e.preventDefault();
    if (!file || !passphrase) return toast.error('Choose the key file and type its passphrase');
    setBusy('open');
    try {
      const { isSurveyKeyFile, unlockPrivateKey } = await import('@survey-bird/contracts/e2e');
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        // Not JSON: answered below as not a key file.
      }
      if (!isSurveyKeyFile(parsed)) return toast.error('This file is not a Survey Bird survey key');
      const privateKey = await unlockPrivateKey(parsed, passphrase);
      setOpenedKey({ kid: parsed.kid, privateKey, fileName: file.name });
      setPassphrase('');
      toast.success('Key opened: answers are decrypted in this browser');
    } catch (err) {
      toast.error(err instanceof Error && err.name === 'WrongPassphraseError' ? 'The passphrase does not open this key file' : 'The key file could not be opened');
    } finally {
      setBusy(null);
    }
  }

  async function exportAll() {
    if (!key) return;
    setBusy('export');
    try {
      const rows: ResponseRow[] = [];
      for (let page = 1; ; page++) {
        const reply = await api.call(route, { params: { surveyId: survey._id }, query: { page, searchQuery: '' } });
        rows.push(...(await openRows(key, reply.responses)));
        if (!reply.hasNextPage) break;
      }
      const { decryptedCsv } = await import('./decrypted-csv');
      saveBlob(new Blob([decryptedCsv(survey, rows)], { type: 'text/csv;charset=utf-8' }), `${survey.title.replace(/[^\w-]+/g, '_')}_decrypted.csv`);
      toast.success(`${rows.length.toLocaleString('en-NG')} responses decrypted and saved`);
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="e2e-panel" aria-label="End-to-end encryption">
      <p className="e2e-panel__lead">
        <strong>Answers are end-to-end encrypted.</strong> The server cannot read them: search, the map, charts over answers and the Export button do not include them.
        {key ? ' They are decrypted in this browser with the key you opened.' : ' Open the survey key to read them here.'}
      </p>
      {key ? (
        <div className="e2e-panel__row">
          <span className="badge badge--brand">Key {key.kid.slice(0, 8)} open</span>
          <button type="button" className="btn btn--primary btn--sm" disabled={busy !== null} onClick={() => void exportAll()}>{busy === 'export' && <Spinner label="Decrypting" />} Export decrypted (CSV)</button>
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpenedKey(null)}>Close key</button>
        </div>
      ) : (
        <form className="e2e-panel__row" onSubmit={(e) => void open(e)}>
          <label htmlFor={ids.file} className="e2e-panel__label">Key file</label>
          <input id={ids.file} type="file" accept=".json,application/json" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          <label htmlFor={ids.pass} className="e2e-panel__label">Passphrase</label>
          <input id={ids.pass} type="password" autoComplete="off" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} />
          <button type="submit" className="btn btn--primary btn--sm" disabled={busy !== null}>{busy === 'open' && <Spinner label="Opening" />} Open answers</button>
        </form>
      )}
    </section>
  );
}
