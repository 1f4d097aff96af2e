import { Limits } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useState, type CSSProperties } from 'react';
import { navigateTo } from '../../lib/navigate';
import { paths } from '../../lib/paths';
import { Header } from '../../shell/Header';
import { CheckIcon, ClockIcon, LayersIcon, OfflineIcon, QuestionsIcon, WalletIcon, ChartIcon } from '../../ui/icons';
import { LogoMark } from '../../ui/Logo';
import { useAccounts } from '../../session/account-storage';
import { activeAccountHome } from '../accounts/home';
import { RequestDemoDialog } from './RequestDemoDialog';
import './landing.css';

const NAV = [
  { href: '#home', label: 'Home' },
  { href: '#how-it-works', label: 'How it works' },
  { href: '#micro-services', label: 'Micro services' },
  { href: '#pricing', label: 'Pricing' },
  { href: '#demo', label: 'Demo' },
];

export function LandingPage() {
  const [demoOpen, setDemoOpen] = useState(false);
  const active = useAccounts()[0];
  const signedIn = active !== undefined;
  const nav = (
    <nav className="landing-nav" aria-label="Page sections">
      {NAV.map((n) => <a key={n.href} href={n.href}>{n.label}</a>)}
    </nav>
  );
  return (
    <div className="landing" style={{ '--landing-ms': `${Limits.landingAnimationMs}ms` } as CSSProperties}>
      <Header nav={nav} className="header--landing" />
      <main id="main">
        {active && <ResumeBar email={active.email} />}
        <section id="home" className="hero">
          <div className="hero__copy">
            <p className="eyebrow"><OfflineIcon size={16} /> Works with no signal</p>
            <h1 className="hero__title">Field data you can trust, captured anywhere.</h1>
            <p className="hero__lead">
              Survey Bird puts your questionnaires on every field officer&apos;s phone, keeps each response safe offline
              until there is network, pays your team per verified response, and hands the office clean data ready for Excel.
            </p>
            <div className="hero__actions">
              <button type="button" className="btn btn--primary btn--lg" onClick={() => setDemoOpen(true)}>Request Demo</button>
              {signedIn ? (
                <Link to={paths.landing} search={{ showMicroservices: true }} className="btn btn--ghost btn--lg">All products</Link>
              ) : (
                <Link to={paths.login} className="btn btn--ghost btn--lg">Sign in</Link>
              )}
            </div>
            <ul className="hero__points">
              <li><CheckIcon size={18} /> Offline forms with photos and GPS</li>
              <li><CheckIcon size={18} /> Pay per response, in naira</li>
              <li><CheckIcon size={18} /> Supervisors see only their team</li>
            </ul>
          </div>
          <PhoneMock />
        </section>

        <section id="how-it-works" className="section">
          <h2 className="section__title">How it works</h2>
          <p className="section__lead">From questionnaire to clean spreadsheet in three steps.</p>
          <ol className="steps">
            <li className="step">
              <span className="step__num">1</span>
              <h3>Build the survey</h3>
              <p>Text, choice, checkbox, photo and live-location questions. Mark what is compulsory and publish.</p>
            </li>
            <li className="step">
              <span className="step__num">2</span>
              <h3>Invite your field team</h3>
              <p>Add field users with their bank details and rate per response; give supervisors their own people.</p>
            </li>
            <li className="step">
              <span className="step__num">3</span>
              <h3>Collect, review, pay</h3>
              <p>Responses sync when the phone finds network. Watch progress daily, export to Excel, see what each person is owed.</p>
            </li>
          </ol>
        </section>

        <section id="micro-services" className="section section--tint">
          <h2 className="section__title">Micro services</h2>
          <p className="section__lead">Survey Bird is the first of a family of tools for teams that work in the field.</p>
          <div className="services">
            <article className="service service--live">
              <LogoMark size={40} />
              <h3>Survey Bird</h3>
              <p>Offline data collection with pay per response.</p>
              <span className="badge badge--brand">Available</span>
            </article>
            {[
              { name: 'Time tracking', Icon: ClockIcon, text: 'Clock-ins with location for field shifts.' },
              { name: 'Workforce organisation', Icon: LayersIcon, text: 'Teams, regions and assignments in one place.' },
              { name: 'Productivity measurement', Icon: ChartIcon, text: 'Output per person and per day, without spreadsheets.' },
            ].map(({ name, Icon, text }) => (
              <article key={name} className="service">
                <span className="service__icon"><Icon size={24} /></span>
                <h3>{name}</h3>
                <p>{text}</p>
                <span className="badge">Coming soon</span>
              </article>
            ))}
          </div>
        </section>

        <section id="pricing" className="section">
          <h2 className="section__title">Pricing</h2>
          <p className="section__lead">Simple terms that follow your fieldwork.</p>
          <div className="pricing">
            <article className="plan">
              <h3>Field teams</h3>
              <p className="plan__price">Free</p>
              <p>Field users and supervisors never pay. The app installs from the browser, no app store needed.</p>
            </article>
            <article className="plan plan--main">
              <h3>Organizations</h3>
              <p className="plan__price">Per project</p>
              <p>Priced by the number of responses you expect. You set each field user&apos;s rate per response; Survey Bird totals what is due.</p>
              <button type="button" className="btn btn--primary" onClick={() => setDemoOpen(true)}>Talk to us</button>
            </article>
            <article className="plan">
              <h3>Large programmes</h3>
              <p className="plan__price">Custom</p>
              <p>Many surveys, regions and supervisors, with your own server if your data must stay in-house.</p>
            </article>
          </div>
        </section>

        <section id="demo" className="section section--cta">
          <div className="cta">
            <div>
              <h2 className="section__title">See it with your own questionnaire</h2>
              <p>We load one of your forms, you try it on a phone in flight mode, and watch the responses arrive.</p>
            </div>
            <button type="button" className="btn btn--accent btn--lg" onClick={() => setDemoOpen(true)}>Request Demo</button>
          </div>
        </section>
      </main>
      <footer className="footer">
        <span>© {new Date().getFullYear()} Survey Bird</span>
        <span>Built for field teams in Nigeria and beyond</span>
      </footer>
      <RequestDemoDialog open={demoOpen} onClose={() => setDemoOpen(false)} />
    </div>
  );
}

/** For a stored account, one tap from the landing page to its role's home (docs/decisions.md). */
function ResumeBar({ email }: { email: string }) {
  const [busy, setBusy] = useState(false);
  async function open() {
    setBusy(true);
    const home = await activeAccountHome();
    setBusy(false);
    if (home) navigateTo(home);
  }
  return (
    <div className="landing-resume">
      <p className="landing-resume__text">Signed in as <strong>{email}</strong></p>
      <button type="button" className="btn btn--primary" onClick={() => void open()} disabled={busy}>Open Survey Bird</button>
    </div>
  );
}

/** A phone showing a survey in progress, drawn with CSS so the page stays light. */
function PhoneMock() {
  return (
    <div className="mock" aria-hidden="true">
      <div className="phone">
        <div className="phone__bar"><span>Water point survey</span><span className="phone__net"><OfflineIcon size={14} /></span></div>
        <div className="phone__body">
          <div className="mock-q">
            <span className="mock-q__label">Is the pump working? <b>*</b></span>
            <span className="mock-q__choice mock-q__choice--on">Yes</span>
            <span className="mock-q__choice">No</span>
          </div>
          <div className="mock-q">
            <span className="mock-q__label">Photo of the site</span>
            <span className="mock-q__photo" />
          </div>
          <div className="mock-q">
            <span className="mock-q__label">Location</span>
            <span className="mock-q__loc"><CheckIcon size={14} /> 6.5244, 3.3792</span>
          </div>
          <span className="phone__save"><QuestionsIcon size={14} /> Saved on this phone</span>
        </div>
      </div>
      <div className="float float--pay">
        <WalletIcon size={18} />
        <div><strong>₦12,500 due</strong><span>25 responses × ₦500</span></div>
      </div>
      <div className="float float--sync">
        <CheckIcon size={18} />
        <div><strong>1,284 responses</strong><span>synced and ready to export</span></div>
      </div>
    </div>
  );
}
