import { t } from '../../lib/i18n';
import { StorageKey } from '../../session/storage-keys';
import { toast } from '../../lib/toast-store';
import type { AccountKey } from '../../session/account-key';

/**
 * "This survey was updated" when the survey list brings a version above the one this account last
 * saw of this survey; the first sight of a survey says nothing. Remembered in localStorage.
 */
export function noticeIfUpdated(account: AccountKey, surveyId: string, version: number): void {
  const key = `${account}/${surveyId}`;
  let seen: Record<string, number> = {};
  try {
    seen = (JSON.parse(localStorage.getItem(StorageKey.seenSurveyVersions) ?? '{}') as Record<string, number> | null) ?? {};
  } catch {
    seen = {};
  }
  const before = seen[key];
  if (before === version) return;
  if (before !== undefined && version > before) toast.success(t('msg.surveyUpdated'));
  try {
    localStorage.setItem(StorageKey.seenSurveyVersions, JSON.stringify({ ...seen, [key]: version }));
  } catch {
    // Storage full: the notice may show again, nothing else depends on it.
  }
}
