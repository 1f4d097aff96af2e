import { answerOf } from '@survey-bird/contracts';
import { useEffect, useRef } from 'react';
import { QuestionField } from './QuestionField';
import type { ResponseEditor as Editor } from './use-response-editor';

interface Props {
  editor: Editor;
  /** Options of a large select matching a query (works offline from the phone's copy). */
  searchDataset: (question: string, query: string) => Promise<string[]>;
  /** Held while a response is being queued. */
  disabled?: boolean;
  /** Waiting for more than the rules (the form's draft being read back). */
  loading?: boolean;
}

/**
 * The questions of one response, as the form, Fix and Fix and resubmit show them: only those
 * shown for the answers so far (show-if), each with its problem under it; after a refused check
 * the first question to fix comes into view with the keyboard on it.
 */
export function ResponseEditor({ editor, searchDataset, disabled = false, loading = false }: Props) {
  const ref = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const first = editor.refusals > 0 ? ref.current?.querySelector<HTMLElement>('.q--invalid') : null;
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    (first.querySelector<HTMLElement>('input:not(:disabled), select, textarea, button:not(:disabled)') ?? first).focus({ preventScroll: true });
  }, [editor.refusals]);

  if (!editor.ready || loading) {
    return (
      <div className="fu-form__questions fu-form__questions--loading" aria-busy="true">
        {editor.questions.map((q) => <div key={q.text} className="q q--skeleton" />)}
      </div>
    );
  }
  return (
    <fieldset className="fu-form__questions" ref={ref} disabled={disabled}>
      {editor.questions.map((q, i) => !editor.shown.has(q.text) ? null : (
        <QuestionField
          key={q.text}
          question={q}
          number={i + 1}
          value={answerOf(editor.answers, q.text)}
          photo={editor.photos[q.text]}
          sentPhoto={answerOf(editor.sent, q.text)}
          processing={editor.processing.has(q.text)}
          problem={editor.problems[q.text]}
          onAnswer={(value) => editor.setAnswer(q.text, value)}
          onPhoto={(photo) => void editor.setPhoto(q.text, photo)}
          searchDataset={searchDataset}
        />
      ))}
    </fieldset>
  );
}
