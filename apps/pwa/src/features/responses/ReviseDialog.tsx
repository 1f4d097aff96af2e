import { PENDING_PHOTO_ANSWER, type Answers, type Survey } from '@survey-bird/contracts';
import { useState } from 'react';
import { enqueueResponse, searchDataset, type EarningsLine } from '../../offline';
import { Modal } from '../../ui/Modal';
import { toast } from '../../lib/toast-store';
import { ResponseEditor } from '../capture/ResponseEditor';
import { useResponseEditor, type Entered } from '../capture/use-response-editor';
import { isPhotoQuestion, type SentPhotos } from '../capture/form-logic';
import type { AccountKey } from '../../session/account-key';
import { useT } from '../../lib/i18n';

interface Props {
  line: EarningsLine;
  survey: Survey;
  account: AccountKey;
  onClose: () => void;
  onQueued: () => void;
}

/** The returned response as the editor starts it: photo answers are the server's references of the photos sent. */
function startOf(survey: Survey, answers: Answers): Entered {
  const photoQuestions = new Set(survey.questions.filter(isPhotoQuestion).map((q) => q.text));
  const typed: Answers = {};
  const sent: SentPhotos = {};
  for (const [question, answer] of Object.entries(answers)) {
    if (!photoQuestions.has(question)) typed[question] = answer;
    else if (typeof answer === 'string' && answer !== '' && answer !== PENDING_PHOTO_ANSWER) sent[question] = answer;
  }
  return { answers: typed, photos: {}, sent };
}

/**
 * Fix and resubmit a returned response: its questions as the form shows them, pre-filled with the
 * answers the reviewer saw (photos already on the server shown, kept unless another is chosen),
 * the comment on top. Sending checks it as the server will, then queues a new revision
 * (`revisionOf`, a fresh clientId) in the outbox, which delivers it like any response, offline first.
 */
export default function ReviseDialog({ line, survey, account, onClose, onQueued }: Props) {
  const t = useT();
  const [start] = useState(() => startOf(survey, line.answers ?? {}));
  const editor = useResponseEditor({ questions: survey.questions, languages: survey, account, photoQuality: survey.photoQuality, start });
  const [saving, setSaving] = useState(false);

  const send = async () => {
    if (saving) return;
    const checked = editor.validate();
    if (!checked) return;
    setSaving(true);
    try {
      // A replaced photo's old reference goes: the new one is uploaded and put in its place.
      const kept = Object.fromEntries(Object.entries(checked.sent).filter(([q]) => !Object.hasOwn(checked.photos, q)));
      // Filled on the survey's current version: checked against it, and the response moves to it.
      await enqueueResponse({ account, surveyId: survey._id, organizationId: survey.organization_id, answers: { ...checked.answers, ...kept }, photos: checked.photos, revisionOf: line.id, version: survey.version ?? 1 });
      toast.success(navigator.onLine ? t('fix.savedSending') : t('fix.savedOffline'));
      onQueued();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : t('msg.unexpectedError'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open title={t('earnings.fixResubmit')} onClose={onClose} className="modal--fix">
      {line.comment && <p className="earn-rec__comment" role="note"><strong>{t('earnings.reviewer')}</strong> {line.comment}</p>}
      <ResponseEditor editor={editor} searchDataset={(question, query) => searchDataset(account, survey._id, question, query)} disabled={saving} />
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>{t('common.cancel')}</button>
        <button type="button" className="btn btn--primary" onClick={() => void send()} disabled={saving || editor.processing.size > 0}>{saving ? t('common.saving') : t('fix.send')}</button>
      </div>
    </Modal>
  );
}
