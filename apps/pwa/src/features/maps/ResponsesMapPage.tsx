import { MAP_FLAG_FILTERS, QUALITY_FLAGS, RESPONSE_STATUSES, type FieldUser, type MapQuery, type ResponseStatus, type Survey } from '@survey-bird/contracts';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api';
import { paths } from '../../lib/paths';
import { toast } from '../../lib/toast-store';
import { useOfficeMay } from '../accounts/session';
import { HiddenPersonalNote } from '../privacy/HiddenPersonal';
import { flagLabel } from '../review/flag-labels';
import { ActiveSurveyButton } from '../surveys/ActiveSurveyButton';
import { useActiveSurvey } from '../surveys/active-survey';
import { MgmtHead, NoActiveSurvey } from '../team/Layout';
import { LazyMap as LeafletMap } from './LazyMap';
import { Legend } from './Legend';
import { MapTabs } from './MapTabs';
import { markersOf, type ColourBy, type MapView } from './markers';
import { useSurveyMap } from './use-map';
import './maps.css';

// The detail view (answers, flags, audio, back-check, erase) loads when a response is opened, not with the list.
const ResponseDetail = lazy(() => import('../review/ResponseDetail').then((m) => ({ default: m.ResponseDetail })));

type Office = 'organization' | 'supervisor';

const STATUS_WORD: Record<ResponseStatus, string> = { approved: 'Approved', pending: 'Pending', returned: 'Returned', rejected: 'Rejected' };

export function OrganizationResponsesMapPage() {
  return <ResponsesMapPage role="organization" />;
}

export function SupervisorResponsesMapPage() {
  return <ResponsesMapPage role="supervisor" />;
}

/** Every located response of the active survey on a map (the responses table's scope), filtered, coloured, clickable. */
function ResponsesMapPage({ role }: { role: Office }) {
  const { survey, loading } = useActiveSurvey();
  if (!survey) {
    return (
      <NoActiveSurvey heading="Map" loading={loading}>
        <p className="empty-note__title">No survey yet</p>
        <p>Responses with a location show on the map once a survey has them.</p>
      </NoActiveSurvey>
    );
  }
  return <SurveyMap key={survey._id} survey={survey} role={role} />;
}

interface Filters {
  from: string;
  to: string;
  fieldUserId: string;
  status: '' | ResponseStatus;
  flag: '' | (typeof MAP_FLAG_FILTERS)[number];
}

const NO_FILTERS: Filters = { from: '', to: '', fieldUserId: '', status: '', flag: '' };

/** A date input's day as the start of that day on this phone's clock (ISO); `end`: the next day's start. */
export function dayBound(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + (end ? 1 : 0)).toISOString();
}

function SurveyMap({ survey, role }: { survey: Survey; role: Office }) {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [colourBy, setColourBy] = useState<ColourBy>('status');
  const [view, setView] = useState<MapView | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // Owners and admins upload the basemap; an analyst would only meet the server's 403.
  const mayUpload = useOfficeMay('uploadBasemap');
  const fieldUsers = useFieldUsers(survey._id, role);
  const filterKey = JSON.stringify(filters);
  // Until a filter's first answer has been fitted into view, the whole survey is asked for (no bbox).
  const [fitted, setFitted] = useState<string | null>(null);
  const whole = fitted !== filterKey;
  const query = useMemo((): MapQuery | null => {
    if (!view) return null;
    return {
      zoom: view.zoom,
      ...(view.bbox && !whole ? { bbox: view.bbox } : {}),
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.flag ? { flag: filters.flag } : {}),
      ...(filters.fieldUserId ? { fieldUserId: filters.fieldUserId } : {}),
      ...(dayBound(filters.from) ? { from: dayBound(filters.from) } : {}),
      ...(dayBound(filters.to, true) ? { to: dayBound(filters.to, true) } : {}),
    };
  }, [view, filters, whole]);
  const map = useSurveyMap(survey._id, query, reload);
  const fresh = map.answered === JSON.stringify(query);
  useEffect(() => {
    if (whole && fresh) setFitted(filterKey);
  }, [whole, fresh, filterKey]);
  const markers = useMemo(() => markersOf(map.data?.features ?? [], colourBy), [map.data, colourBy]);
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setFilters((f) => ({ ...f, [k]: v }));
  const tabs = role === 'organization' ? { responses: paths.orgMap, team: paths.orgTeamMap } : { responses: paths.supervisorMap, team: paths.supervisorTeamMap };
  const total = map.data?.total ?? 0;
  const hidden = map.data?.locationsHidden === true;

  return (
    <section className="mgmt map-page">
      <MgmtHead
        title={`${survey.title}: map`}
        sub={role === 'supervisor' ? 'Responses of your field users that have a location.' : hidden ? 'How many responses have a location in each area.' : 'Every response that has a location. Choose a point to open the response.'}
        actions={
          <>
            <ActiveSurveyButton />
            {role === 'organization' && mayUpload && <BasemapUpload onSaved={() => setReload((n) => n + 1)} />}
          </>
        }
      />
      <MapTabs {...tabs} />
      <form className="map-filters" aria-label="Map filters" onSubmit={(e) => e.preventDefault()}>
        <label>From<input type="date" aria-label="From" value={filters.from} onChange={(e) => set('from', e.target.value)} /></label>
        <label>To<input type="date" aria-label="To" value={filters.to} onChange={(e) => set('to', e.target.value)} /></label>
        <label>Field user
          <select aria-label="Field user" value={filters.fieldUserId} onChange={(e) => set('fieldUserId', e.target.value)}>
            <option value="">All field users</option>
            {fieldUsers.map((f) => <option key={f._id} value={f._id}>{f.fullName}</option>)}
          </select>
        </label>
        <label>Status
          <select aria-label="Status" value={filters.status} onChange={(e) => set('status', e.target.value as Filters['status'])}>
            <option value="">Any status</option>
            {RESPONSE_STATUSES.map((s) => <option key={s} value={s}>{STATUS_WORD[s]}</option>)}
          </select>
        </label>
        <label>Flag
          <select aria-label="Flag" value={filters.flag} onChange={(e) => set('flag', e.target.value as Filters['flag'])}>
            <option value="">Flagged or not</option>
            <option value="any">Any open flag</option>
            <option value="none">No open flag</option>
            {QUALITY_FLAGS.map((f) => <option key={f} value={f}>{flagLabel(f)}</option>)}
          </select>
        </label>
        <label>Colour by
          <select aria-label="Colour by" value={colourBy} onChange={(e) => setColourBy(e.target.value as ColourBy)}>
            <option value="status">Status</option>
            <option value="flag">Flag</option>
          </select>
        </label>
        {filterKey !== JSON.stringify(NO_FILTERS) && <button type="button" className="btn btn--ghost" onClick={() => setFilters(NO_FILTERS)}>Clear filters</button>}
      </form>
      {hidden && (
        <HiddenPersonalNote>
          Respondents' locations are personal data, hidden for your office role: responses are counted per area of about 7 km
          (wider when zoomed out) and never shown at their place.
        </HiddenPersonalNote>
      )}
      <div className="map-frame">
        <LeafletMap
          basemap={map.data?.basemap ?? null}
          markers={markers}
          bounds={map.data?.bounds ?? null}
          onView={setView}
          onMarker={(m) => setOpen(m.id)}
          fitKey={whole && fresh ? filterKey : null}
          label={`Map of ${survey.title} responses`}
        />
        <div className="map-frame__bar">
          <span role="status" aria-live="polite">
            {map.loading && !map.data ? 'Loading the map…' : map.failed ? 'The map could not be loaded.' : `${total.toLocaleString('en')} response${total === 1 ? '' : 's'} with a location in view${hidden ? ' (counted per area)' : ''}`}
            {map.data?.truncated ? ` (the first ${map.data.features.length.toLocaleString('en')} shown: zoom in)` : ''}
          </span>
          <Legend colourBy={colourBy} />
        </div>
      </div>
      {open && <Suspense fallback={null}><ResponseDetail id={open} survey={survey} onClose={() => setOpen(null)} onChanged={() => setReload((n) => n + 1)} /></Suspense>}
    </section>
  );
}

/** The field users the filter offers: the caller's list (a supervisor's own), first 100 by the list's order. */
function useFieldUsers(surveyId: string, role: Office): FieldUser[] {
  const [list, setList] = useState<FieldUser[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    const call = role === 'organization'
      ? api.call('fieldUsers', { params: { surveyId }, query: { page: 1 }, signal: controller.signal })
      : api.call('supervisorFieldUsers', { params: { surveyId }, query: { page: 1 }, signal: controller.signal });
    call.then((r) => setList(r.fieldUsers), () => undefined);
    return () => controller.abort();
  }, [surveyId, role]);
  return list;
}

/** The organization's offline basemap: a PMTiles archive of its area, replacing the one before. */
function BasemapUpload({ onSaved }: { onSaved: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  async function upload(file: File) {
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const saved = await api.call('uploadBasemap', { form });
      toast.success(`${saved.msg}: ${saved.name}`);
      onSaved();
    } catch {
      // The failure was shown by the client (its message in the spec's words).
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }
  return (
    <label className="btn btn--ghost map-upload">
      {busy ? 'Uploading…' : 'Upload basemap (.pmtiles)'}
      <input ref={input} type="file" accept=".pmtiles,application/vnd.pmtiles,application/octet-stream" disabled={busy} className="visually-hidden" onChange={(e) => { const f = e.target.files?.[0]; if (f) void upload(f); }} />
    </label>
  );
}
