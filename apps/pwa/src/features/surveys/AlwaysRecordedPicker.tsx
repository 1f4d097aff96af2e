import type { FieldUser } from '@survey-bird/contracts';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';

/**
 * "Always record these field users" in the audio-audit settings: the chosen field users (their
 * member `_id` on this survey) as removable rows, and a search over the survey's field users (one
 * page of the field-user list per query) to add more. Names come from the rows the list returned;
 * a chosen field user not on a page read yet shows as "a field user" until a search finds them.
 */
export default function AlwaysRecordedPicker({ surveyId, chosen, onChange }: { surveyId: string; chosen: readonly string[]; onChange: (ids: string[]) => void }) {
  const [query, setQuery] = useState('');
  const [rows, setRows] = useState<FieldUser[] | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const searchId = useId();

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.call('fieldUsers', { params: { surveyId }, query: { page: 1, searchQuery: query.trim() }, signal: controller.signal, handleErrors: false })
        .then((reply) => {
          setRows(reply.fieldUsers);
          setNames((n) => ({ ...n, ...Object.fromEntries(reply.fieldUsers.map((f) => [f._id, f.fullName || f.email])) }));
        })
        .catch(() => undefined);
    }, query ? 250 : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [surveyId, query]);

  const picked = new Set(chosen);
  const toAdd = (rows ?? []).filter((f) => !picked.has(f._id));
  return (
    <div className="field always-recorded">
      <span className="always-recorded__label">Always record these field users <span className="optional">(optional)</span></span>
      {chosen.length > 0 ? (
        <ul className="always-recorded__chosen" aria-label="Always recorded">
          {chosen.map((id) => (
            <li key={id}>
              <span>{names[id] ?? 'A field user'}</span>
              <button type="button" className="btn btn--ghost btn--sm" aria-label={`Remove ${names[id] ?? 'this field user'}`} onClick={() => onChange(chosen.filter((c) => c !== id))}>Remove</button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="form__hint">Nobody: only the random share is recorded.</p>
      )}
      <label htmlFor={searchId} className="visually-hidden">Find a field user to always record</label>
      <input id={searchId} type="search" value={query} placeholder="Find by name or e-mail" onChange={(e) => setQuery(e.target.value)} />
      {rows !== null && (
        toAdd.length === 0 ? <p className="form__hint">{rows.length === 0 ? 'No field user matches.' : 'Every field user listed is already chosen.'}</p> : (
          <ul className="always-recorded__found" aria-label="Field users to add">
            {toAdd.slice(0, 8).map((f) => (
              <li key={f._id}>
                <span>{f.fullName || f.email}</span>
                <button type="button" className="btn btn--ghost btn--sm" aria-label={`Add ${f.fullName || f.email}`} onClick={() => onChange([...chosen, f._id])}>Add</button>
              </li>
            ))}
          </ul>
        )
      )}
      <p className="form__hint">Every interview of theirs is recorded (after the respondent agrees), whatever the share.</p>
    </div>
  );
}
