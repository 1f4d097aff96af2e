import { useT } from '../lib/i18n';
export function Spinner({ label }: { label?: string }) {
  const t = useT();
  return <span className="spinner" role="status" aria-label={label ?? t('common.loading')} />;
}

/** Whole-area loading state for guarded screens. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner />
    </div>
  );
}
