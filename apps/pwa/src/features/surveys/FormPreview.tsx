import { withQuestionIds, type Question, type SurveyLanguage } from '@survey-bird/contracts';
import { useMemo, useState } from 'react';
import { Modal } from '../../ui/Modal';
import { ResponseEditor } from '../capture/ResponseEditor';
import { useResponseEditor } from '../capture/use-response-editor';
import '../capture/field-user.css';

interface Props {
  title: string;
  description: string;
  questions: Question[];
  languages?: SurveyLanguage[] | undefined;
  defaultLanguage?: string | undefined;
  onClose: () => void;
}

const EMPTY = { answers: {}, photos: {}, sent: {} };

/**
 * The form as a field user will see it, before publishing: the phone's own editor on the contracts'
 * form engine (groups, repeats with their instances, calculations, relevance, constraints, choice
 * filters, languages), so what it accepts is what the phone and the server accept. Nothing is saved or sent.
 */
export function FormPreview({ title, description, questions, languages, defaultLanguage, onClose }: Props) {
  const stored = useMemo(() => withQuestionIds(questions), [questions]);
  const editor = useResponseEditor({ questions: stored, languages: { languages, defaultLanguage }, photoQuality: undefined, start: EMPTY });
  const [accepted, setAccepted] = useState(false);
  const search = async (question: string, query: string) => {
    const q = stored.find((x) => x.text === question);
    const wanted = query.trim().toLowerCase();
    return (q?.options ?? []).filter((o) => o.toLowerCase().includes(wanted)).slice(0, 50);
  };

  return (
    <Modal open title={`Preview: ${title.trim() || 'Untitled survey'}`} onClose={onClose} className="modal--form">
      <div className="preview fu-form" onChangeCapture={() => setAccepted(false)}>
        {description.trim() && <p className="fu-form__desc">{description}</p>}
        <p className="form__hint">Try the form as a field user: answers here are not saved.</p>
        {languages && languages.length > 1 && (
          <label className="lang-switch">
            Language
            <select value={editor.language ?? ''} onChange={(e) => editor.setLanguage(e.currentTarget.value)}>
              {languages.map((l) => <option key={l.code} value={l.code}>{l.label}</option>)}
            </select>
          </label>
        )}
        <ResponseEditor editor={editor} searchDataset={search} />
        <div className="builder__editor-actions">
          <button type="button" className="btn btn--ghost" onClick={() => { editor.load(EMPTY); setAccepted(false); }}>Start again</button>
          <button type="button" className="btn btn--primary" onClick={() => setAccepted(editor.validate() !== null)}>Check answers</button>
        </div>
        {accepted && <p className="form__hint" role="status">These answers would be accepted.</p>}
      </div>
    </Modal>
  );
}

export default FormPreview;
