import type { Answer, Survey } from '@survey-bird/contracts';
import { formatCell } from '../insight/cells';
import { HiddenPersonal } from '../privacy/HiddenPersonal';
import { SessionPhoto } from './SessionPhoto';
import { answerTree, type AnswerNode } from './answer-lines';
import { AnswerValue, hasOwnView } from './AnswerValue';

/**
 * A response's answers in the detail view: the form's questions in order, a group under its
 * title, a repeat as one numbered card per instance ("Member 2") with its members' answers and
 * photos, then any answer to a question no longer in the form.
 */
export function AnswerTree({ answers, survey }: { answers: Record<string, Answer>; survey: Survey }) {
  return <Nodes nodes={answerTree(survey.questions, answers)} />;
}

function Nodes({ nodes }: { nodes: AnswerNode[] }) {
  // Consecutive lines share one list; a group or a repeat breaks it.
  const runs: (AnswerNode[] | AnswerNode)[] = [];
  for (const n of nodes) {
    const last = runs[runs.length - 1];
    if (n.kind === 'line' && Array.isArray(last)) last.push(n);
    else runs.push(n.kind === 'line' ? [n] : n);
  }
  return (
    <>
      {runs.map((run, i) => {
        if (Array.isArray(run)) return <Lines key={i} lines={run} />;
        if (run.kind === 'group') {
          return (
            <section key={i} className="answer-group">
              <h4>{run.title}</h4>
              <Nodes nodes={run.children} />
            </section>
          );
        }
        if (run.kind === 'repeat') {
          return (
            <section key={i} className="answer-repeat">
              <h4>{run.title} <span className="answer-repeat__count">({run.instances.length})</span></h4>
              {run.instances.length === 0 ? <p className="resp-na">N/A</p> : (
                <ol className="answer-repeat__list">
                  {run.instances.map((inst, n) => (
                    <li key={n} className="answer-repeat__inst" aria-label={`${run.title} ${n + 1}`}>
                      <div className="answer-repeat__title">{run.title} {n + 1}</div>
                      <Nodes nodes={inst} />
                    </li>
                  ))}
                </ol>
              )}
            </section>
          );
        }
        return null;
      })}
    </>
  );
}

function Lines({ lines }: { lines: AnswerNode[] }) {
  return (
    <dl className="response-detail__answers">
      {lines.map((line, i) => {
        if (line.kind !== 'line') return null;
        const { question: text, answer, type } = line;
        const cell = formatCell(answer, undefined, type);
        return [
          <dt key={`q-${i}`}>{text}</dt>,
          <dd key={`a-${i}`}>
            {type !== undefined && answer !== undefined && hasOwnView(type, answer, cell) ? (
              <AnswerValue type={type} answer={answer} cell={cell} question={text} />
            ) : cell.kind === 'photo' ? (
              <SessionPhoto href={cell.href} alt={`Photo: ${text}`} />
            ) : cell.kind === 'link' ? (
              <a href={cell.href} target="_blank" rel="noopener noreferrer">{cell.text}</a>
            ) : cell.kind === 'hidden' ? <HiddenPersonal /> : cell.kind === 'missing' || cell.kind === 'pending' ? <span className="resp-na">{cell.text}</span> : cell.text}
          </dd>,
        ];
      })}
    </dl>
  );
}
