import { useState } from 'react';
import { SUPPORT_EMAIL } from '../lib/config';
import { activeAccount } from '../session/account-storage';
import { activeAccountHome } from '../features/accounts/home';
import { paths } from '../lib/paths';
import { navigateTo } from '../lib/navigate';
import { LogoMark } from '../ui/Logo';
import { ChartIcon, ClockIcon, LayersIcon, SupportIcon, WalletIcon } from '../ui/icons';

const COMING_SOON = [
  { name: 'Time tracking', Icon: ClockIcon },
  { name: 'Workforce organisation', Icon: LayersIcon },
  { name: 'Productivity measurement', Icon: ChartIcon },
  { name: 'Payroll and payouts', Icon: WalletIcon },
];

/** The open product grid (ProductGrid.tsx): Survey Bird, four Coming soon tools and Tech support. */
export function ProductsPanel({ close }: { close: () => void }) {
  const [loading, setLoading] = useState(false);

  async function openSurveyBird() {
    if (!activeAccount()) {
      close();
      navigateTo(paths.login);
      return;
    }
    setLoading(true);
    const home = await activeAccountHome(true);
    setLoading(false);
    close();
    if (home) navigateTo(home);
  }

  return (
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
  );
}
