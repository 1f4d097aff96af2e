import { useState } from 'react';
import { api } from '../../api';
import { saveBlob } from '../insight/download';

/** The field user's own copy of everything held about them (account, bank details, earnings, responses), as a JSON file. */
export function MyDataButton() {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const data = await api.call('myData', {});
      saveBlob(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), `my-survey-bird-data_${new Date().toISOString().slice(0, 10)}.json`);
    } catch {
      // Toasted by the API client.
    } finally {
      setBusy(false);
    }
  }
  return <button type="button" className="btn btn--ghost" disabled={busy} onClick={() => void download()}>{busy ? 'Preparing…' : 'Download all my data'}</button>;
}
