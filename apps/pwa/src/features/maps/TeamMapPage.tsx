import type { Survey, TeamMapReply } from '@survey-bird/contracts';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { formatAgo, formatResponseDate } from '../../ui/format';
import { PageLoading } from '../../ui/Spinner';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { MgmtHead, NoActiveSurvey, RefreshButton } from '../team/Layout';
import { LazyMap as LeafletMap } from './LazyMap';
import { MapTabs } from './MapTabs';
import type { MapMarker } from './markers';
import './maps.css';

// The detail view (answers, flags, audio, back-check, erase) loads when a response is opened, not with the list.
const ResponseDetail = lazy(() => import('../review/ResponseDetail').then((m) => ({ default: m.ResponseDetail })));

type Office = 'organization' | 'supervisor';

export function OrganizationTeamMapPage() {
  return <TeamMapPage role="organization" />;
}

export function SupervisorTeamMapPage() {
  return <TeamMapPage role="supervisor" />;
}

/** Where each field user was last seen (their latest located response) and when; stale ones grey. */
function TeamMapPage({ role }: { role: Office }) {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Team map" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>Field users show here once they have sent a response with a location.</p>
      </NoActiveSurvey>
    );
  }
  return <TeamMap key={survey._id} survey={survey} role={role} />;
}

const FIELD_USER_COLOUR = '#0f766e';
const STALE_COLOUR = '#94a3b8';

function TeamMap({ survey, role }: { survey: Survey; role: Office }) {
  const [data, setData] = useState<TeamMapReply | null>(null);
  const [busy, setBusy] = useState(true);
  const [reload, setReload] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    setBusy(true);
    api.call('teamMap', { params: { id: survey._id }, query: { page: 1 }, signal: controller.signal }).then(
      (r) => {
        setData(r);
        setBusy(false);
      },
      () => setBusy(controller.signal.aborted),
    );
    return () => controller.abort();
  }, [survey._id, reload]);
  const markers = useMemo((): MapMarker[] => (data?.fieldUsers ?? []).flatMap((f) => (f.position
    ? [{ id: f.position.responseId, lat: f.position.lat, lng: f.position.lng, colour: f.stale ? STALE_COLOUR : FIELD_USER_COLOUR, grey: f.stale, title: `${f.fullName}, last seen ${formatResponseDate(f.position.at)}${f.stale ? ' (stale)' : ''}`, label: `${f.fullName} · ${formatAgo(f.position.at)}` }]
    : [])), [data]);
  const tabs = role === 'organization' ? { responses: paths.orgMap, team: paths.orgTeamMap } : { responses: paths.supervisorMap, team: paths.supervisorTeamMap };
  const days = data?.staleSyncDays;

  return (
    <section className="mgmt map-page">
      <MgmtHead
        title={`${survey.title}: team map`}
        sub={`Each field user's last known position, from their latest response with a location.${days ? ` Grey: not seen for more than ${days} day${days === 1 ? '' : 's'} (your organization's setting).` : ''}`}
        actions={<><ActiveSurveyButton /><RefreshButton onClick={() => setReload((n) => n + 1)} busy={busy} /></>}
      />
      <MapTabs {...tabs} />
      <div className="map-team">
        <div className="map-frame">
          <LeafletMap basemap={data?.basemap ?? null} markers={markers} onMarker={(m) => setOpen(m.id)} fitKey={data ? `team-${reload}` : null} label={`Map of ${survey.title} field users`} />
        </div>
        <div className="map-team__list">
          {!data ? <PageLoading /> : data.fieldUsers.length === 0 ? <p className="empty-note">No field user on this survey yet.</p> : (
            <table className="map-team__table">
              <caption className="visually-hidden">Field users' last known positions</caption>
              <thead><tr><th scope="col">Field user</th><th scope="col">Last seen</th></tr></thead>
              <tbody>
                {data.fieldUsers.map((f) => (
                  <tr key={f._id} className={f.stale ? 'map-team__row--stale' : undefined}>
                    <td>{f.fullName}</td>
                    <td>{f.position ? <>{formatResponseDate(f.position.at)}{f.stale && <span className="map-stale"> stale</span>}</> : 'No location yet'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
      {open && <Suspense fallback={null}><ResponseDetail id={open} survey={survey} onClose={() => setOpen(null)} onChanged={() => setReload((n) => n + 1)} /></Suspense>}
    </section>
  );
}
