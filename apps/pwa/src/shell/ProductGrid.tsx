import { Suspense, lazy, useEffect } from 'react';
import { navigateTo } from '../lib/navigate';
import { GridIcon } from '../ui/icons';
import { usePopover } from '../ui/usePopover';

// The panel's code loads when the grid opens: off every route's first paint.
const ProductsPanel = lazy(() => import('./ProductsPanel').then((m) => ({ default: m.ProductsPanel })));

/** The URL without ?showMicroservices, so the same link opens the grid again after it is closed. */
function withoutShowParam(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('showMicroservices');
  return url.pathname + url.search + url.hash;
}

/**
 * The portal's product grid: Survey Bird, four Coming soon tools and Tech support.
 * `requested` follows ?showMicroservices=true (spec section 2), on arrival and while on the page.
 */
export function ProductGrid({ requested }: { requested: boolean }) {
  const pop = usePopover(requested);
  const { setOpen } = pop;
  useEffect(() => {
    if (!requested) return;
    setOpen(true);
    navigateTo(withoutShowParam(), true);
  }, [requested, setOpen]);

  return (
    <div className="popover" ref={pop.ref}>
      <button type="button" className="icon-btn" aria-label="Products" aria-expanded={pop.open} aria-haspopup="true" onClick={pop.toggle}>
        <GridIcon size={22} />
      </button>
      {pop.open && (
        <Suspense fallback={null}>
          <ProductsPanel close={pop.close} />
        </Suspense>
      )}
    </div>
  );
}
