import type { BulkInviteReply, BulkRow } from '@survey-bird/contracts';
import { useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { saveBlob } from '../insight/download';
import type { InviteKind } from './invite';

interface BulkInviteModalProps {
  kind: InviteKind;
  surveyId: string;
  surveyTitle: string;
  onClose: () => void;
  onInvited: () => void;
}

const STATUS_LABEL: Record<BulkRow['status'], string> = { new: 'New', existing: 'Already on the survey', error: 'Error' };

/**
 * Upload a CSV or xlsx of people: the server previews every row (new, already on the survey, or the
 * error in the form's words) and writes nothing until Confirm; then each new row is invited.
 */
export function BulkInviteModal({ kind, surveyId, surveyTitle, onClose, onInvited }: BulkInviteModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<BulkInviteReply | null>(null);
  const [busy, setBusy] = useState<'preview' | 'commit' | null>(null);
  const route = kind === 'fieldUser' ? 'bulkInviteFieldUsers' : 'bulkInviteSupervisors';
  const who = kind === 'fieldUser' ? 'field users' : 'supervisors';

  async function send(dryRun: boolean) {
    if (!file || busy) return;
    const form = new FormData();
    form.append('survey_id', surveyId);
    form.append('file', file);
    setBusy(dryRun ? 'preview' : 'commit');
    try {
      const reply = await api.call(route, { form, query: { dryRun: dryRun ? 'true' : 'false' } });
      setPreview(reply);
      if (!dryRun) {
        toast.success(`${reply.invited} ${reply.invited === 1 ? 'person' : 'people'} invited`);
        onInvited();
      }
    } catch {
      // toasted by the API client
    } finally {
      setBusy(null);
    }
  }

  async function template() {
    const blob = await api.call('bulkTemplate', { query: { role: kind === 'fieldUser' ? 'field_user' : 'supervisor' } });
    saveBlob(blob, `${kind === 'fieldUser' ? 'field-users' : 'supervisors'}-template.csv`);
  }

  const rows = preview?.rows ?? [];
  const count = (s: BulkRow['status']) => rows.filter((r) => r.status === s).length;
  const committed = preview !== null && !preview.dryRun;
  return (
    <Modal open title={`Upload ${who}`} onClose={onClose} className="modal--wide">
      <div className="bulk">
        <p className="form__hint">Invite many {who} to <strong>{surveyTitle}</strong> from a CSV or Excel file, one person per row. <button type="button" className="cell-link" onClick={() => void template()}>Download the template</button></p>
        <div className="bulk__pick">
          <input type="file" aria-label="File of people" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setPreview(null); }} />
          <button type="button" className="btn btn--ghost" disabled={!file || busy !== null} onClick={() => void send(true)}>{busy === 'preview' && <Spinner label="Checking" />} Preview</button>
        </div>
        {preview && (
          <>
            <p className="bulk__summary" aria-live="polite">
              {committed ? `${preview.invited} invited. ` : `${count('new')} new. `}{count('existing')} already on the survey. {count('error')} with errors{count('error') ? ': fix them in the file and upload it again (nobody is invited twice).' : '.'}
            </p>
            <div className="bulk__table" role="region" aria-label="Rows of the file" tabIndex={0}>
              <table className="table">
                <thead><tr><th>Row</th><th>Name</th><th>E-mail</th><th>Status</th><th>What to fix</th></tr></thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.row} className={`bulk__row bulk__row--${r.status}`}>
                      <td>{r.row}</td><td>{r.fullName}</td><td>{r.email}</td><td>{STATUS_LABEL[r.status]}</td>
                      <td className="wrap">{r.errors.map((e) => `${e.column}: ${e.msg}`).join('; ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{committed ? 'Done' : 'Cancel'}</button>
          {preview?.dryRun && count('new') > 0 && (
            <button type="button" className="btn btn--primary" disabled={busy !== null} onClick={() => void send(false)}>{busy === 'commit' && <Spinner label="Inviting" />} Invite {count('new')} {count('new') === 1 ? 'person' : 'people'}</button>
          )}
        </div>
      </div>
    </Modal>
  );
}
