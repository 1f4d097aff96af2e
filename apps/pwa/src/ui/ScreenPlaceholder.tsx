import type { ReactNode } from 'react';

/** Stand-in for a feature screen that is not built yet: the title and what will live here. */
export function ScreenPlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="screen">
      <h1 className="screen__title">{title}</h1>
      <div className="placeholder">
        <p>{children ?? 'This screen is on its way.'}</p>
      </div>
    </section>
  );
}
