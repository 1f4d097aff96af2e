import { Msg, answerOf, type Answer, type Answers, type Survey } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { downscalePhoto, readPhotos, retry, searchDataset, updateAnswers, type OutboxRecord } from '../../offline';
import { Modal } from '../../ui/Modal';
import { toast } from '../../ui/toast-store';
import { QuestionField } from '../capture/QuestionField';
import { isPhotoQuestion, missingCompulsory, type Photos } from './form-logic';

interface Props {
  record: OutboxRecord;
  survey: Survey;
  account: string;
  onClose: () => void;
  onSaved: () => void;
}

/** 'Fix' on a refused response: the same questions, prefilled; saving queues it again (updateAnswers, retry). */
export default function FixResponseDialog({ record, survey, account, onClose, onSaved }: Props) {
  const [answers, setAnswers] = useState<Answers>(record.answers);
  const [photos, setPhotos] = useState<Photos>({});
  const [changed, setChanged] = useState<Photos>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void readPhotos(record.id).then(setPhotos, () => undefined);
  }, [record.id]);

  // A photo already uploaded (its reference kept) still answers its question.
  const present: Photos = { ...Object.fromEntries(Object.keys(record.photoRefs).map((q) => [q, new Blob()])), ...photos };

  const save = async () => {
    if (saving) return;
    if (missingCompulsory(survey.questions, answers, present).length > 0) return toast.error(Msg.fillCompulsory);
    setSaving(true);
    try {
      // The dialog shows the survey's current version: the answers are sent on it.
      await updateAnswers(record.id, answers, changed, survey.version ?? 1);
      await retry(record.id);
      onSaved();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : Msg.unexpectedError);
    } finally {
      setSaving(false);
    }
  };

  const setPhoto = async (question: string, photo: Blob | null) => {
    if (!photo) return; // a refused response keeps its photo until another one replaces it
    const small = await downscalePhoto(photo, survey.photoQuality);
    setPhotos((p) => ({ ...p, [question]: small }));
    setChanged((p) => ({ ...p, [question]: small }));
  };

  return (
    <Modal open title="Fix this response" onClose={onClose} className="modal--fix">
      {record.lastError && <p className="fu-rec__error"><strong>The server said:</strong> {record.lastError.msg}</p>}
      <div className="fu-form__questions">
        {survey.questions.map((q, i) => (
          <QuestionField
            key={q.text}
            question={q}
            number={i + 1}
            value={answerOf(answers, q.text)}
            photo={photos[q.text]}
            processing={false}
            onAnswer={(value: Answer) => setAnswers((a) => ({ ...a, [q.text]: value }))}
            onPhoto={(photo) => void setPhoto(q.text, photo)}
            searchDataset={(question, query) => searchDataset(account, survey._id, question, query)}
          />
        ))}
        {survey.questions.filter((q) => isPhotoQuestion(q) && record.photoRefs[q.text] && !photos[q.text]).map((q) => (
          <p key={q.text} className="q__hint">The photo for “{q.text}” is already on the server; choose another only to replace it.</p>
        ))}
      </div>
      <div className="modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
        <button type="button" className="btn btn--primary" onClick={() => void save()} disabled={saving}>{saving ? 'Saving…' : 'Save and send again'}</button>
      </div>
    </Modal>
  );
}
