export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className="spinner" role="status" aria-label={label} />;
}

/** Whole-area loading state for guarded screens. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner />
    </div>
  );
}
