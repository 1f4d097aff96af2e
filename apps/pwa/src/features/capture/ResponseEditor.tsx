import { useEffect, useRef } from 'react';
import { confirmDialog } from '../../lib/dialog-store';
import { answerAt } from './answer-path';
import type { GroupView, RepeatView, ViewNode } from './form-view';
import { QuestionField } from './QuestionField';
import type { ResponseEditor as Editor } from './use-response-editor';
import { useT } from '../../lib/i18n';
import { ruleText } from './rule-text';

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
 * The questions of one response, as the form, Fix and Fix and resubmit show them: the tree the
 * rules module decided (groups as titled sections, a `field-list` group as one panel, repeats with
 * their instances), only what is relevant for the answers so far, each question with its problem
 * under it; after a refused check the first question to fix comes into view with the keyboard on it.
 */
export function ResponseEditor({ editor, searchDataset, disabled = false, loading = false }: Props) {
  const ref = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const first = editor.refusals > 0 ? ref.current?.querySelector<HTMLElement>('.q--invalid, .rpt--invalid') : null;
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    (first.querySelector<HTMLElement>('input:not(:disabled), select, textarea, button:not(:disabled)') ?? first).focus({ preventScroll: true });
  }, [editor.refusals]);

  if (!editor.ready || loading) {
    return (
      <div className="fu-form__questions fu-form__questions--loading" aria-busy="true">
        {editor.questions.slice(0, 12).map((q) => <div key={q.id} className="q q--skeleton" />)}
      </div>
    );
  }
  return (
    <fieldset className="fu-form__questions" ref={ref} disabled={disabled}>
      <Nodes nodes={editor.view} editor={editor} searchDataset={searchDataset} />
    </fieldset>
  );
}

type NodesProps = { nodes: readonly ViewNode[]; editor: Editor; searchDataset: Props['searchDataset'] };

function Nodes({ nodes, editor, searchDataset }: NodesProps) {
  return nodes.map((node) => {
    if (node.kind === 'group') return <Group key={node.key} node={node} editor={editor} searchDataset={searchDataset} />;
    if (node.kind === 'repeat') return <Repeat key={node.key} node={node} editor={editor} searchDataset={searchDataset} />;
    return (
      <QuestionField
        key={node.key}
        question={node.question}
        view={node}
        number={node.number}
        value={answerAt(editor.answers, node.path) as never}
        photo={editor.photos[node.key]}
        sentPhoto={editor.sent[node.key]}
        processing={editor.processing.has(node.key)}
        problem={editor.problems[node.key]}
        onAnswer={(value) => editor.setAnswer(node.path, value)}
        onPhoto={(photo) => void editor.setPhoto(node.key, photo, node.question.type)}
        searchDataset={searchDataset}
      />
    );
  });
}

function Group({ node, editor, searchDataset }: { node: GroupView } & Omit<NodesProps, 'nodes'>) {
  const titleId = `grp-${node.key}`;
  return (
    <section className={node.fieldList ? 'grp grp--list' : 'grp'} aria-labelledby={titleId}>
      <h2 id={titleId} className="grp__title">{node.label}</h2>
      {node.hint && <p className="grp__hint">{node.hint}</p>}
      <div className="grp__body"><Nodes nodes={node.children} editor={editor} searchDataset={searchDataset} /></div>
    </section>
  );
}

function Repeat({ node, editor, searchDataset }: { node: RepeatView } & Omit<NodesProps, 'nodes'>) {
  const t = useT();
  const titleId = `rpt-${node.key}`;
  const problem = editor.problems[node.key];
  const remove = async (index: number) => {
    const yes = await confirmDialog({
      title: t('repeat.removeTitle', { label: node.label, n: index + 1 }),
      body: t('repeat.removeBody', { label: node.label }),
      action: t('common.remove'),
      cancel: t('repeat.keep'),
      tone: 'danger',
    });
    if (yes) editor.removeInstance(node, index);
  };
  return (
    <section className={problem ? 'rpt rpt--invalid' : 'rpt'} aria-labelledby={titleId}>
      <header className="rpt__head">
        <h2 id={titleId} className="rpt__title">{node.label}</h2>
        <span className="rpt__count">{node.instances.length}</span>
      </header>
      {node.hint && <p className="grp__hint">{node.hint}</p>}
      {node.instances.map((inst) => (
        <div key={inst.key} className="rpt__inst" role="group" aria-label={`${node.label} ${inst.index + 1}`}>
          <div className="rpt__inst-head">
            <h3 className="rpt__inst-title">{node.label} {inst.index + 1}</h3>
            {node.canRemove && <button type="button" className="btn btn--ghost btn--sm rpt__remove" onClick={() => void remove(inst.index)}>{t('common.remove')}</button>}
          </div>
          <Nodes nodes={inst.children} editor={editor} searchDataset={searchDataset} />
        </div>
      ))}
      {problem && <p className="q__error">{ruleText(problem)}</p>}
      {node.canAdd && (
        <button type="button" className="btn btn--ghost rpt__add" onClick={() => editor.addInstance(node)}>
          {node.instances.length === 0 ? t('repeat.add', { label: node.label }) : t('repeat.addAnother', { label: node.label })}
        </button>
      )}
    </section>
  );
}
