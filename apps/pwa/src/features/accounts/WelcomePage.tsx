import { Role } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { SALES_EMAIL } from '../../lib/config';
import { homeFor, paths } from '../../lib/paths';
import { Header } from '../../shell/Header';
import { Redirect } from '../../ui/Redirect';
import { PageLoading } from '../../ui/Spinner';
import { useSession } from './session';
import './accounts.css';

/** For signed-in users with role `nothing`: no invitation yet. */
export function WelcomePage() {
  const s = useSession();
  if (!s.hasAccount) return <Redirect to={paths.orgInsight} />;
  if (s.user && s.user.role !== Role.nothing) return <Redirect to={homeFor(s.user.role)} />;
  return (
    <div className="shell">
      <Header />
      {s.user ? (
        <main id="main" className="welcome">
          <div className="welcome__card card">
            <h1 className="welcome__title">Welcome to Survey Bird</h1>
            <p>
              You are new here, and there are no pending invitations for <strong>{s.user.email}</strong>. When an
              organization invites this e-mail to a survey, it will show up here.
            </p>
            <p>
              Running field surveys yourself? An organization account can be set up for you, so you can create surveys
              and invite field users and supervisors. Setting up an organization may incur a fee.
            </p>
            <div className="welcome__actions">
              <Link to={paths.landing} className="btn btn--primary">Go Home</Link>
              <a className="btn btn--ghost" href={`mailto:${SALES_EMAIL}?subject=${encodeURIComponent('Set up an organization on Survey Bird')}`}>
                Set up an organization
              </a>
            </div>
          </div>
        </main>
      ) : s.status === 'failed' ? null : (
        <PageLoading />
      )}
    </div>
  );
}
