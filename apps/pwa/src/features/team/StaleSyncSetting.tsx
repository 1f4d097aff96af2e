import { MAX_STALE_SYNC_DAYS } from '@survey-bird/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { useOfficeMay } from '../accounts/session';

/**
 * The organization's "no sync for N days" threshold, set where its effect shows: the field-user
 * table highlights by it, and supervisors' pages and daily e-mails follow it.
 */
export function StaleSyncSetting({ days, onSaved }: { days: number; onSaved: () => void }) {
  const [value, setValue] = useState(String(days));
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(String(days)), [days]);
  const mayChange = useOfficeMay('organizationSettings');
  const n = Number(value);
  const valid = /^\d+$/.test(value) && n >= 1 && n <= MAX_STALE_SYNC_DAYS;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!valid || n === days || busy) return;
    setBusy(true);
    try {
      await api.call('organizationSettings', { body: { staleSyncDays: n } });
      toast.success(`Field users with work on the phone and no sync for ${n} day${n === 1 ? '' : 's'} are now highlighted`);
      onSaved();
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  }

  if (!mayChange) return null;
  return (
    <form className="stale-sync" onSubmit={(e) => void save(e)}>
      <label>
        Highlight field users with work on the phone and no sync for{' '}
        <input type="number" inputMode="numeric" min={1} max={MAX_STALE_SYNC_DAYS} step={1} value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={!valid || undefined} />{' '}
        days
      </label>
      <button type="submit" className="btn btn--ghost btn--sm" disabled={busy || !valid || n === days}>Save</button>
      <span className="stale-sync__note">Supervisors' pages and their daily e-mail follow this.</span>
    </form>
  );
}
