import type { BulkInviteReply, BulkRow } from '@survey-bird/contracts';
import { useState } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { saveBlob } from '../insight/download';
import type { InviteKind } from './invite';
import { msgId, useT } from '../../lib/i18n';

interface BulkInviteModalProps {
  kind: InviteKind;
  surveyId: string;
  surveyTitle: string;
  onClose: () => void;
  onInvited: () => void;
}

const STATUS_LABEL: Record<BulkRow['status'], string> = { new: msgId('office.bulk.new'), existing: msgId('office.bulk.existing'), error: msgId('office.bulk.error') };

/**
 * Upload a CSV or xlsx of people: the server previews every row (new, already on the survey, or the
 * error in the form's words) and writes nothing until Confirm; then each new row is invited.
 */
export function BulkInviteModal({ kind, surveyId, surveyTitle, onClose, onInvited }: BulkInviteModalProps) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<BulkInviteReply | null>(null);
  const [busy, setBusy] = useState<'preview' | 'commit' | null>(null);
  const route = kind === 'fieldUser' ? 'bulkInviteFieldUsers' : 'bulkInviteSupervisors';


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
        toast.success(t('office.bulk.invited', { count: reply.invited }));
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
    <Modal open title={kind === 'fieldUser' ? t('office.bulk.uploadFieldUsers') : t('office.bulk.uploadSupervisors')} onClose={onClose} className="modal--wide">
      <div className="bulk">
        <p className="form__hint">{kind === 'fieldUser' ? t('office.bulk.manyFieldUsers') : t('office.bulk.manySupervisors')} <strong>{surveyTitle}</strong> {t('office.bulk.fromFile')} <button type="button" className="cell-link" onClick={() => void template()}>{t('office.bulk.template')}</button></p>
        <div className="bulk__pick">
          <input type="file" aria-label={t('office.bulk.file')} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); setPreview(null); }} />
          <button type="button" className="btn btn--ghost" disabled={!file || busy !== null} onClick={() => void send(true)}>{busy === 'preview' && <Spinner label={t('office.flags.checking')} />} {t('office.bulk.preview')}</button>
        </div>
        {preview && (
          <>
            <p className="bulk__summary" aria-live="polite">
              {committed ? t('office.bulk.summaryInvited', { n: preview.invited }) : t('office.bulk.summaryNew', { n: count('new') })} {t('office.bulk.summaryExisting', { n: count('existing') })} {count('error') ? t('office.bulk.summaryErrorsFix', { n: count('error') }) : t('office.bulk.summaryErrors', { n: count('error') })}
            </p>
            <div className="bulk__table" role="region" aria-label={t('office.bulk.rows')} tabIndex={0}>
              <table className="table">
                <thead><tr><th>{t('office.bulk.row')}</th><th>{t('office.bulk.name')}</th><th>{t('office.invite.email')}</th><th>{t('office.responses.status')}</th><th>{t('office.bulk.fix')}</th></tr></thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.row} className={`bulk__row bulk__row--${r.status}`}>
                      <td>{r.row}</td><td>{r.fullName}</td><td>{r.email}</td><td>{t(STATUS_LABEL[r.status])}</td>
                      <td className="wrap">{r.errors.map((e) => `${e.column}: ${e.msg}`).join('; ')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>{committed ? t('common.done') : t('common.cancel')}</button>
          {preview?.dryRun && count('new') > 0 && (
            <button type="button" className="btn btn--primary" disabled={busy !== null} onClick={() => void send(false)}>{busy === 'commit' && <Spinner label={t('office.bulk.inviting')} />} {t('office.bulk.invitePeople', { count: count('new') })}</button>
          )}
        </div>
      </div>
    </Modal>
  );
}
