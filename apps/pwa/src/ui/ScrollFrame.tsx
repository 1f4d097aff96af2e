import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A region that scrolls sideways and says so: a shadow on each edge that has more to show, so a
 * table wider than the screen never looks cut off (the last columns used to vanish at 1280 px).
 */
export function ScrollFrame({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((prev) => (prev.left === left && prev.right === right ? prev : { left, right }));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, []);
  return (
    <div className={`scroll-edges${edges.left ? ' scroll-edges--left' : ''}${edges.right ? ' scroll-edges--right' : ''}`}>
      <div ref={ref} className={className} role="region" aria-label={label} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
