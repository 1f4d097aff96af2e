import { withQuestionIds, type Answer, type Answers, type Question, type StoredQuestion } from '@survey-bird/contracts';
import { useMemo, useState } from 'react';
import { Modal } from '../../ui/Modal';
import { QuestionField } from '../capture/QuestionField';
import type { Photos, Problems } from '../field-user/form-logic';
import { answerProblems, check, shownQuestions, withoutHidden } from '../field-user/form-rules';
import '../field-user/field-user.css';

interface Props {
  title: string;
  description: string;
  questions: Question[];
  onClose: () => void;
}

/**
 * The form as a field user will see it, before publishing: the same question fields, show-if and
 * constraint messages (the evaluator the phone and the server run). Nothing is saved or sent.
 */
export function FormPreview({ title, description, questions, onClose }: Props) {
  const stored = useMemo<StoredQuestion[]>(() => withQuestionIds(questions).map((q) => ({ ...q, options: q.options })), [questions]);
  const [answers, setAnswers] = useState<Answers>({});
  const [photos, setPhotos] = useState<Photos>({});
  const [checked, setChecked] = useState<Problems | null>(null);
  const shown = shownQuestions(stored, answers, photos);
  const problems = { ...answerProblems(stored, answers, photos), ...(checked ?? {}) };

  const setAnswer = (text: string, value: Answer) => {
    setChecked(null);
    setAnswers((prev) => withoutHidden(stored, { ...prev, [text]: value }, photos).answers);
  };
  const setPhoto = (text: string, photo: Blob | null) => {
    setChecked(null);
    setPhotos((prev) => {
      const { [text]: _old, ...rest } = prev;
      return photo ? { ...rest, [text]: photo } : rest;
    });
  };
  const search = async (question: string, query: string) => {
    const q = stored.find((x) => x.text === question);
    const wanted = query.trim().toLowerCase();
    return (q?.options ?? []).filter((o) => o.toLowerCase().includes(wanted)).slice(0, 50);
  };

  return (
    <Modal open title={`Preview: ${title.trim() || 'Untitled survey'}`} onClose={onClose} className="modal--form">
      <div className="preview fu-form">
        {description.trim() && <p className="fu-form__desc">{description}</p>}
        <p className="form__hint">Try the form as a field user: answers here are not saved.</p>
        {stored.map((q, i) => !shown.has(q.text) ? null : (
          <QuestionField
            key={q.text}
            question={q}
            number={i + 1}
            value={Object.hasOwn(answers, q.text) ? answers[q.text] : undefined}
            photo={photos[q.text]}
            processing={false}
            problem={problems[q.text]}
            onAnswer={(value) => setAnswer(q.text, value)}
            onPhoto={(photo) => setPhoto(q.text, photo)}
            searchDataset={search}
          />
        ))}
        <div className="builder__editor-actions">
          <button type="button" className="btn btn--ghost" onClick={() => { setAnswers({}); setPhotos({}); setChecked(null); }}>Start again</button>
          <button type="button" className="btn btn--primary" onClick={() => setChecked(check(stored, answers, photos).problems)}>Check answers</button>
        </div>
        {checked !== null && Object.keys(checked).length === 0 && <p className="form__hint" role="status">These answers would be accepted.</p>}
      </div>
    </Modal>
  );
}

export default FormPreview;
