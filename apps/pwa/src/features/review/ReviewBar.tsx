import { toast } from '../../lib/toast-store';
import { ReviewActions } from './ReviewActions';
import { useT } from '../../lib/i18n';
import { outcomeText, reviewIds, reviewMatching, type Verdict } from './review-calls';

/**
 * Bulk review above the responses table: the selected rows, or, with none selected while the table
 * shows pending responses, every pending response matching the search (chosen by the server, not
 * only the page on screen). Hidden otherwise.
 */
export function ReviewBar({ surveyId, searchQuery, selected, pendingFilter, onDone, onClear }: {
  surveyId: string;
  searchQuery: string;
  selected: string[];
  pendingFilter: boolean;
  onDone: () => void;
  onClear: () => void;
}) {
  const t = useT();
  if (selected.length === 0 && !pendingFilter) return null;
  const matching = selected.length === 0;
  async function verdict(status: Verdict, comment?: string) {
    try {
      const outcome = matching ? await reviewMatching(surveyId, searchQuery, status, comment) : await reviewIds(selected, status, comment);
      (outcome.failed.length ? toast.warning : toast.success)(outcomeText(outcome, status));
    } finally {
      onDone();
    }
  }
  return (
    <div className="review-bar" role="region" aria-label={t('office.review.region')}>
      <span className="review-bar__count">
        {matching ? (searchQuery ? t('office.review.everyPendingMatching', { query: searchQuery }) : t('office.review.everyPending')) : t('office.review.selected', { count: selected.length })}
      </span>
      <ReviewActions onVerdict={verdict} />
      {!matching && <button type="button" className="btn btn--ghost btn--sm" onClick={onClear}>{t('office.review.clearSelection')}</button>}
    </div>
  );
}
