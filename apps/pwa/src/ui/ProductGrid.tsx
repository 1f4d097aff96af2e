import { useEffect, useState } from 'react';
import { SUPPORT_EMAIL } from '../config';
import { activeAccount } from '../features/accounts/account-storage';
import { activeAccountHome } from '../features/accounts/home';
import { paths } from '../routes/paths';
import { navigateTo } from '../routes/navigate';
import { LogoMark } from './Logo';
import { ChartIcon, ClockIcon, GridIcon, LayersIcon, SupportIcon, WalletIcon } from './icons';
import { usePopover } from './usePopover';

const COMING_SOON = [
  { name: 'Time tracking', Icon: ClockIcon },
  { name: 'Workforce organisation', Icon: LayersIcon },
  { name: 'Productivity measurement', Icon: ChartIcon },
  { name: 'Payroll and payouts', Icon: WalletIcon },
];

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
  const [loading, setLoading] = useState(false);
  const { setOpen } = pop;
  useEffect(() => {
    if (!requested) return;
    setOpen(true);
    navigateTo(withoutShowParam(), true);
  }, [requested, setOpen]);

  async function openSurveyBird() {
    if (!activeAccount()) {
      pop.close();
      navigateTo(paths.login);
      return;
    }
    setLoading(true);
    const home = await activeAccountHome(true);
    setLoading(false);
    pop.close();
    if (home) navigateTo(home);
  }

  return (
    <div className="popover" ref={pop.ref}>
      <button type="button" className="icon-btn" aria-label="Products" aria-expanded={pop.open} aria-haspopup="true" onClick={pop.toggle}>
        <GridIcon size={22} />
      </button>
      {pop.open && (
        <div className="popover__panel products" role="region" aria-label="Products">
          <p className="products__heading">Workforce tools</p>
          <div className="products__grid">
            <button type="button" className="product product--live" onClick={() => void openSurveyBird()} disabled={loading}>
              <LogoMark size={36} />
              <span className="product__name">Survey Bird</span>
              <span className="product__note">{loading ? 'Loading…' : 'Field data collection'}</span>
            </button>
            {COMING_SOON.map(({ name, Icon }) => (
              <div key={name} className="product product--soon" aria-disabled="true">
                <span className="product__icon"><Icon size={22} /></span>
                <span className="product__name">{name}</span>
                <span className="badge">Coming soon</span>
              </div>
            ))}
            <a className="product" href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Survey Bird support')}`}>
              <span className="product__icon"><SupportIcon size={22} /></span>
              <span className="product__name">Tech support</span>
              <span className="product__note">Write to us</span>
            </a>
          </div>
        </div>
      )}
    </div>
  );
}
