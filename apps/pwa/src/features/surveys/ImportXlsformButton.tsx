import type { XlsformImportReply, XlsformSeverity } from '@survey-bird/contracts';
import { useState, type ChangeEvent } from 'react';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { UploadIcon } from '../team/icons';
import { EMPTY_BUILDER, importedText, type BuilderState } from './builder';

/** The report's sections, in the server's order: what was lost, what was changed, what was only reshaped. */
const SECTIONS: { severity: XlsformSeverity; title: string }[] = [
  { severity: 'dropped', title: 'Not imported' },
  { severity: 'changed', title: 'Imported with changes' },
  { severity: 'note', title: 'Notes' },
];

interface Report {
  file: string;
  /** What was imported, as the report's first line says it: "12 questions in 2 groups and 1 repeat". */
  what: string;
  unsupported: XlsformImportReply['unsupported'];
}

/**
 * "Import XLSForm": an ODK or Kobo .xlsx (with the .csv lists it names) read by the server into a draft the builder opens (nothing
 * is published until Publish), then the list of what could not be carried over, row by row. The
 * last import's report can be reopened until the next import replaces it.
 */
export function ImportXlsformButton({ onDraft }: { onDraft: (state: BuilderState) => void }) {
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [open, setOpen] = useState(false);

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    // The form, and the CSV lists its `select_one_from_file` rows name, chosen together.
    const chosen = [...(e.target.files ?? [])];
    e.target.value = '';
    const file = chosen.find((f) => !/\.csv$/i.test(f.name)) ?? chosen[0];
    if (!file) return;
    const form = new FormData();
    for (const f of [file, ...chosen.filter((f) => f !== file)]) form.append('file', f, f.name);
    setBusy(true);
    try {
      const { draft, unsupported } = await api.call('importXlsform', { form });
      onDraft({
        ...EMPTY_BUILDER,
        title: draft.title,
        description: draft.description,
        questions: draft.questions,
        ...(draft.languages ? { languages: draft.languages } : {}),
        ...(draft.defaultLanguage ? { defaultLanguage: draft.defaultLanguage } : {}),
      });
      const what = importedText(draft.questions);
      setReport({ file: file.name, what, unsupported });
      setOpen(unsupported.length > 0);
      if (unsupported.length === 0) toast.success(`${what} imported from ${file.name}`);
    } catch {
      // The API client showed the server's reason (too large, not an .xlsx, no survey sheet); the last report stays.
    } finally {
      setBusy(false);
    }
  }

  const hasReport = report !== null && report.unsupported.length > 0;
  return (
    <>
      <div className="builder__import">
        <label className={`btn btn--ghost btn--sm${busy ? ' is-busy' : ''}`} aria-busy={busy}>
          {busy ? <Spinner label="Importing" /> : <UploadIcon size={16} />} Import XLSForm
          <input type="file" multiple accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv" className="visually-hidden" disabled={busy} onChange={(e) => void choose(e)} />
        </label>
        {hasReport && !open && (
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setOpen(true)}>
            Show import report
          </button>
        )}
      </div>
      {hasReport && (
        <Modal open={open} title="Not carried over" onClose={() => setOpen(false)} className="modal--form">
          <p className="card__text">{report.what} imported from {report.file}. These rows and cells were not, or not exactly; check the draft before you publish.</p>
          <div className="xlsform-report">
            {SECTIONS.map(({ severity, title }) => {
              const entries = report.unsupported.filter((u) => u.severity === severity);
              if (entries.length === 0) return null;
              return (
                <section key={severity} className={`xlsform-report__section xlsform-report__section--${severity}`}>
                  <h3 className="xlsform-report__title">{title} ({entries.length})</h3>
                  <ul>
                    {entries.map((u, i) => (
                      <li key={i}><strong>{u.sheet} row {u.row}{u.column ? `, ${u.column}` : ''}:</strong> {u.reason}</li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        </Modal>
      )}
    </>
  );
}

