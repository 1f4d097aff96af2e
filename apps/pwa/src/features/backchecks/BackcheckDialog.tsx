import { Msg, PhotoQuality, type BackcheckAssignment, type MyBackchecksReply } from '@survey-bird/contracts';
import { useState } from 'react';
import { enqueueResponse, searchDataset } from '../../offline';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import { ResponseEditor } from '../capture/ResponseEditor';
import { useResponseEditor } from '../capture/use-response-editor';
import type { AccountKey } from '../../session/account-key';
import { useT } from '../../lib/i18n';

interface Props {
  assignment: BackcheckAssignment;
  form: MyBackchecksReply['forms'][number];
  account: AccountKey;
  onClose: () => void;
  onQueued: () => void;
}

const EMPTY = { answers: {}, photos: {}, sent: {} };

/**
 * The back-check form for one assignment, filled like any form (the same editor and rules) and
 * queued in the outbox with `backcheckOf`, so it is sent once there is signal.
 */
export default function BackcheckDialog({ assignment, form, account, onClose, onQueued }: Props) {
  const editor = useResponseEditor({ questions: form.questions, account, photoQuality: PhotoQuality.standard, start: EMPTY });
  const t = useT();
  const [saving, setSaving] = useState(false);

  const send = async () => {
    if (saving) return;
    const checked = editor.validate();
    if (!checked) return;
    setSaving(true);
    try {
      await enqueueResponse({ account, surveyId: assignment.survey_id, organizationId: assignment.organization_id, answers: checked.answers, backcheckOf: assignment.responseId, version: form.version });
      toast.success(navigator.onLine ? t('backcheck.savedSending') : t('backcheck.savedOffline'));
      onQueued();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : Msg.unexpectedError);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('backcheck.dialogTitle', { who: assignment.respondent ?? t('backcheck.respondent') })} onClose={onClose} className="modal--fix">
      <p className="form__hint">{t('backcheck.askAgain')}</p>
      <ResponseEditor editor={editor} searchDataset={(question, query) => searchDataset(account, assignment.survey_id, question, query)} disabled={saving} />
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
        <button type="button" className="btn btn--primary" onClick={() => void send()} disabled={saving || editor.processing.size > 0}>{saving ? t('common.saving') : t('backcheck.send')}</button>
      </div>
    </Modal>
  );
}
