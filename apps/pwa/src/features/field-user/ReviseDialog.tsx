import { Msg, answerOf, type Answer, type Answers, type Survey } from '@survey-bird/contracts';
import { useState } from 'react';
import { downscalePhoto, enqueueResponse, searchDataset, type EarningsLine } from '../../offline';
import { Modal } from '../../ui/Modal';
import { toast } from '../../ui/toast-store';
import { QuestionField } from '../capture/QuestionField';
import { isPhotoQuestion, missingCompulsory, type Photos } from './form-logic';

interface Props {
  line: EarningsLine;
  survey: Survey;
  account: string;
  onClose: () => void;
  onQueued: () => void;
}

/**
 * Fix and resubmit a returned response: its questions pre-filled with the answers the reviewer
 * saw (photos already on the server stay as they are unless another is chosen), the comment on
 * top. Sending queues a new revision (`revisionOf`, a fresh clientId) in the outbox, which
 * delivers it like any response, offline first.
 */
export default function ReviseDialog({ line, survey, account, onClose, onQueued }: Props) {
  const [answers, setAnswers] = useState<Answers>(line.answers ?? {});
  const [photos, setPhotos] = useState<Photos>({});
  const [saving, setSaving] = useState(false);

  const uploaded = (question: string) => {
    const a = answerOf(line.answers ?? {}, question);
    return typeof a === 'string' && a !== '' ? a : undefined;
  };
  // A photo already on the server still answers its question.
  const present: Photos = { ...Object.fromEntries(survey.questions.filter((q) => isPhotoQuestion(q) && uploaded(q.text)).map((q) => [q.text, new Blob()])), ...photos };

  const send = async () => {
    if (saving) return;
    if (missingCompulsory(survey.questions, answers, present).length > 0) return toast.error(Msg.fillCompulsory);
    setSaving(true);
    try {
      // A replaced photo's old reference goes: the new one is uploaded and put in its place.
      const kept = Object.fromEntries(Object.entries(answers).filter(([q]) => !Object.hasOwn(photos, q)));
      // Filled on the survey's current version: checked against it, and the response moves to it.
      await enqueueResponse({ account, surveyId: survey._id, organizationId: survey.organization_id, answers: kept, photos, revisionOf: line.id, version: survey.version ?? 1 });
      toast.success(navigator.onLine ? 'Fix saved, sending it now' : 'Fix saved, will send when online');
      onQueued();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : Msg.unexpectedError);
    } finally {
      setSaving(false);
    }
  };

  const setPhoto = async (question: string, photo: Blob | null) => {
    if (!photo) return;
    const small = await downscalePhoto(photo, survey.photoQuality);
    setPhotos((p) => ({ ...p, [question]: small }));
  };

  return (
    <Modal open title="Fix and resubmit" onClose={onClose} className="modal--fix">
      {line.comment && <p className="earn-rec__comment" role="note"><strong>Reviewer:</strong> {line.comment}</p>}
      <div className="fu-form__questions">
        {survey.questions.map((q, i) => (
          <div key={q.text} className="earn-fix__q">
            <QuestionField
              question={q}
              number={i + 1}
              value={isPhotoQuestion(q) ? undefined : answerOf(answers, q.text)}
              photo={photos[q.text]}
              processing={false}
              onAnswer={(value: Answer) => setAnswers((a) => ({ ...a, [q.text]: value }))}
              onPhoto={(photo) => void setPhoto(q.text, photo)}
              searchDataset={(question, query) => searchDataset(account, survey._id, question, query)}
            />
            {isPhotoQuestion(q) && uploaded(q.text) && !photos[q.text] && (
              <figure className="earn-fix__photo">
                <img src={uploaded(q.text)} alt={`Photo sent for “${q.text}”`} loading="lazy" />
                <figcaption>The photo you sent stays; choose another only to replace it.</figcaption>
              </figure>
            )}
          </div>
        ))}
      </div>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
        <button type="button" className="btn btn--primary" onClick={() => void send()} disabled={saving}>{saving ? 'Saving…' : 'Send the fix'}</button>
      </div>
    </Modal>
  );
}
