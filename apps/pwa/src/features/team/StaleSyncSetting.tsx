import { MAX_STALE_SYNC_DAYS } from '@survey-bird/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { toast } from '../../lib/toast-store';
import { useOfficeMay } from '../accounts/session';
import { useT } from '../../lib/i18n';

/**
 * The organization's "no sync for N days" threshold, set where its effect shows: the field-user
 * table highlights by it, and supervisors' pages and daily e-mails follow it.
 */
export function StaleSyncSetting({ days, onSaved }: { days: number; onSaved: () => void }) {
  const t = useT();
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
      toast.success(t('office.team.staleSaved', { count: n }));
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
        {t('office.team.staleBefore')}{' '}
        <input type="number" inputMode="numeric" min={1} max={MAX_STALE_SYNC_DAYS} step={1} value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={!valid || undefined} />{' '}
        {t('office.team.staleDays')}
      </label>
      <button type="submit" className="btn btn--ghost btn--sm" disabled={busy || !valid || n === days}>{t('office.team.save')}</button>
      <span className="stale-sync__note">{t('office.team.staleNote')}</span>
    </form>
  );
}
