import type { XlsformImportReply } from '@survey-bird/contracts';
import { useState, type ChangeEvent } from 'react';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { UploadIcon } from '../team/icons';
import { EMPTY_BUILDER, type BuilderState } from './builder';
import { countOf } from '../../ui/format';

/**
 * "Import XLSForm": an ODK or Kobo .xlsx read by the server into a draft the builder opens (nothing
 * is published until Publish), then the list of what could not be carried over, row by row.
 */
export function ImportXlsformButton({ onDraft }: { onDraft: (state: BuilderState) => void }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<{ file: string; count: number; unsupported: XlsformImportReply['unsupported'] } | null>(null);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy(true);
    try {
      const { draft, unsupported } = await api.call('importXlsform', { form });
      onDraft({ ...EMPTY_BUILDER, title: draft.title, description: draft.description, questions: draft.questions });
      setReport({ file: file.name, count: draft.questions.length, unsupported });
      if (unsupported.length === 0) toast.success(`${countOf(draft.questions.length, 'question')} imported from ${file.name}`);
    } catch {
      // The API client showed the server's reason (too large, not a workbook, no survey sheet).
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <label className={`btn btn--ghost btn--sm builder__import${busy ? ' is-busy' : ''}`} aria-busy={busy}>
        {busy ? <Spinner label="Importing" /> : <UploadIcon size={16} />} Import XLSForm
        <input type="file" accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" className="visually-hidden" disabled={busy} onChange={(e) => void choose(e)} />
      </label>
      {report && report.unsupported.length > 0 && (
        <Modal open title="Not carried over" onClose={() => setReport(null)} className="modal--form">
          <p className="card__text">{countOf(report.count, 'question')} {report.count === 1 ? 'was' : 'were'} imported from {report.file}. These rows and cells were not; check the draft before you publish.</p>
          <ul className="xlsform-report">
            {report.unsupported.map((u, i) => (
              <li key={i}><strong>{u.sheet} row {u.row}{u.column ? `, ${u.column}` : ''}:</strong> {u.reason}</li>
            ))}
          </ul>
        </Modal>
      )}
    </>
  );
}
