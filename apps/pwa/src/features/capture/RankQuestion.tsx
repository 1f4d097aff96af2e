import { t, useT } from '../../lib/i18n';
import './more-types.css';

interface Props {
  id: string;
  choices: readonly { value: string; label: string }[];
  value: readonly string[] | undefined;
  readOnly: boolean;
  onAnswer: (order: string[]) => void;
}

/**
 * The choices put in order with Up and Down buttons (a list a thumb can work, and a screen reader
 * announces): unanswered until the person confirms or moves one, then every choice in its place.
 */
export function RankQuestion({ id, choices, value, readOnly, onAnswer }: Props) {
  useT();
  const names = choices.map((c) => c.value);
  // A kept order without choices the filter no longer offers, and new ones at its end.
  const order = value && value.length > 0 ? [...value.filter((v) => names.includes(v)), ...names.filter((n) => !value.includes(n))] : names;
  const labelOf = new Map(choices.map((c) => [c.value, c.label]));
  const move = (from: number, to: number) => {
    const next = [...order];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    onAnswer(next);
  };
  return (
    <div className="capture rank">
      <ol id={id} className="rank__list">
        {order.map((name, i) => (
          <li key={name} className="rank__item">
            <span className="rank__place" aria-hidden="true">{i + 1}</span>
            <span className="rank__label">{labelOf.get(name) ?? name}</span>
            {!readOnly && (
              <span className="rank__moves">
                <button type="button" className="btn btn--ghost btn--sm" disabled={i === 0} aria-label={t('rank.moveUp', { label: labelOf.get(name) ?? name })} onClick={() => move(i, i - 1)}>↑</button>
                <button type="button" className="btn btn--ghost btn--sm" disabled={i === order.length - 1} aria-label={t('rank.moveDown', { label: labelOf.get(name) ?? name })} onClick={() => move(i, i + 1)}>↓</button>
              </span>
            )}
          </li>
        ))}
      </ol>
      {!readOnly && (!value || value.length === 0) && <button type="button" className="btn btn--ghost capture__btn" onClick={() => onAnswer(order)}>{t('rank.keep')}</button>}
    </div>
  );
}

export default RankQuestion;
