import { Limits } from '@survey-bird/contracts';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../lib/i18n';

interface Props {
  id: string;
  labelId: string;
  value: string | undefined;
  onAnswer: (value: string) => void;
  /** Options matching the query (from the phone's copy of the list, so it works offline). */
  search: (query: string) => Promise<string[]>;
}

/**
 * 'select (> 50 dataset)': a combobox over a long option list (ARIA 1.2 combobox pattern).
 * Typing filters; ArrowUp/ArrowDown move, Enter chooses, Escape closes. Only a chosen option is an
 * answer: leaving the box puts back the chosen option's text.
 */
export function DatasetCombobox({ id, labelId, value, onAnswer, search }: Props) {
  const t = useT();
  const listId = useId();
  const [query, setQuery] = useState(value ?? '');
  const [open, setOpen] = useState(false);
  const [options, setOptions] = useState<string[]>([]);
  const [searching, setSearching] = useState(false);
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => setQuery(value ?? ''), [value]);

  useEffect(() => {
    if (!open) return;
    let alive = true;
    setSearching(true);
    const typed = query === value ? '' : query;
    const timer = setTimeout(() => {
      search(typed)
        .then((found) => {
          if (!alive) return;
          setOptions(found);
          setActive(found.length > 0 ? 0 : -1);
        })
        .catch(() => alive && setOptions([]))
        .finally(() => alive && setSearching(false));
    }, 120);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [open, query, value, search]);

  useEffect(() => {
    if (active >= 0) list.current?.children[active]?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (option: string) => {
    onAnswer(option);
    setQuery(option);
    setOpen(false);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (options.length === 0 ? -1 : (i + step + options.length) % options.length));
    } else if (e.key === 'Enter') {
      if (open && active >= 0 && options[active] !== undefined) {
        e.preventDefault();
        choose(options[active]);
      }
    } else if (e.key === 'Escape') {
      if (open) e.preventDefault();
      setOpen(false);
      setQuery(value ?? '');
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="combo">
      <input
        id={id}
        type="text"
        role="combobox"
        className="combo__input"
        aria-labelledby={labelId}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        placeholder={t('combo.search')}
        value={query}
        onChange={(e) => {
          setQuery(e.currentTarget.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setQuery(value ?? '');
        }}
        onKeyDown={onKeyDown}
      />
      {value !== undefined && <span className="combo__chosen" aria-hidden="true">✓</span>}
      <ul id={listId} ref={list} role="listbox" aria-labelledby={labelId} className="combo__list" hidden={!open}>
        {options.map((option, i) => (
          <li
            key={option}
            id={optionId(i)}
            role="option"
            aria-selected={option === value}
            className={`combo__option${i === active ? ' is-active' : ''}`}
            // mousedown, not click: the input must not blur (and close the list) first.
            onMouseDown={(e) => {
              e.preventDefault();
              choose(option);
            }}
          >
            {option}
          </li>
        ))}
        {!searching && options.length === 0 && <li className="combo__empty" role="presentation">{t('combo.none')}</li>}
        {options.length >= Limits.datasetSearchLimit && <li className="combo__more" role="presentation">{t('combo.more')}</li>}
      </ul>
    </div>
  );
}

export default DatasetCombobox;
