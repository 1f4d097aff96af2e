import { PhotoQuality, type Survey, type SurveySettingsBody, type SurveySettingsReply } from '@survey-bird/contracts';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../lib/dialog-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../lib/toast-store';
import { MAX_ACCURACY_DEFAULT, MIN_DURATION_DEFAULT, RETENTION_HINT, settingsBody, settingsForm, type SettingsForm } from './survey-settings';

// Only with audio audits on, and off the office chunk every office route loads (its budget is tight).
const AlwaysRecordedPicker = lazy(() => import('./AlwaysRecordedPicker'));
// End-to-end encryption's key making loads with the panel, apart from the office's screens.
const EncryptionSettings = lazy(() => import('../e2e/EncryptionSettings').then((m) => ({ default: m.EncryptionSettings })));

/** The survey as the settings reply leaves it. */
export function withSettings(survey: Survey, reply: SurveySettingsReply): Survey {
  return {
    ...survey,
    payAfterReview: reply.payAfterReview,
    minDurationSeconds: reply.minDurationSeconds,
    maxAccuracyMeters: reply.maxAccuracyMeters,
    photoQuality: reply.photoQuality,
    retentionDays: reply.retentionDays,
    audioAudit: reply.audioAudit,
    payGate: reply.payGate,
    encryptionKey: reply.encryptionKey,
    closed: reply.closed,
    closedAt: reply.closed ? (survey.closedAt ?? new Date().toISOString()) : null,
  };
}

/**
 * Survey settings, one panel per survey (from Manage Survey): pay after review, the quality-flag
 * thresholds, photo quality (the phones use it from their next survey refresh), and Close / Reopen.
 * Save sends only what changed, in one PATCH; closing asks first.
 */
export function SurveySettingsModal({ survey, onClose, onChanged }: { survey: Survey | null; onClose: () => void; onChanged: (survey: Survey) => void }) {
  if (!survey) return null;
  // Keyed by the survey's stored settings: a save or another survey starts the form afresh.
  const key = `${survey._id}|${JSON.stringify(settingsForm(survey))}`;
  return <SettingsPanel key={key} survey={survey} onClose={onClose} onChanged={onChanged} />;
}

function SettingsPanel({ survey, onClose, onChanged }: { survey: Survey; onClose: () => void; onChanged: (survey: Survey) => void }) {
  const [form, setForm] = useState<SettingsForm>(() => settingsForm(survey));
  const [busy, setBusy] = useState(false);
  const ids = { pay: useId(), min: useId(), accuracy: useId(), photo: useId(), audio: useId(), percent: useId(), consent: useId(), gateApproved: useId(), gateAudio: useId(), gateBackcheck: useId() };
  const change = (c: Partial<SettingsForm>) => setForm((f) => ({ ...f, ...c }));
  const closed = survey.closed === true;

  async function send(body: SurveySettingsBody, done: string) {
    setBusy(true);
    try {
      const reply = await api.call('surveySettings', { params: { id: survey._id }, body });
      toast.success(done);
      onChanged(withSettings(survey, reply));
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const checked = settingsBody(form, survey);
    if ('msg' in checked) return toast.error(checked.msg);
    if (!checked.body) return toast.success('Nothing to save');
    void send(checked.body, 'Settings saved');
  }

  async function close() {
    const yes = await confirmDialog({
      title: 'Close this survey?',
      body: 'Field users can no longer start new responses. Responses made on a phone before the close are still accepted when it syncs. You can reopen it later.',
      action: 'Close survey',
      cancel: 'Cancel',
      tone: 'danger',
    });
    if (yes) await send({ closed: true }, 'Survey closed: field users can no longer start new responses');
  }

  return (
    <Modal open title={`Survey settings: ${survey.title}`} onClose={onClose} className="modal--form">
      <form className="form survey-settings" onSubmit={save} noValidate inert={busy}>
        <label className="check" htmlFor={ids.pay}>
          <input id={ids.pay} type="checkbox" checked={form.payAfterReview} onChange={(e) => change({ payAfterReview: e.target.checked })} />
          Pay after review
        </label>
        <p className="form__hint">On: a response earns its rate only once it is approved. Off: every response received earns it.</p>
        <div className="field">
          <label htmlFor={ids.min}>Minimum time to fill in (seconds) <span className="optional">(optional)</span></label>
          <input id={ids.min} type="text" inputMode="numeric" value={form.minDurationSeconds} placeholder="e.g. 90" onChange={(e) => change({ minDurationSeconds: e.target.value })} />
          <p className="form__hint">A response filled in faster is flagged "too fast", from the first one. Blank: {MIN_DURATION_DEFAULT}.</p>
        </div>
        <div className="field">
          <label htmlFor={ids.accuracy}>GPS accuracy limit (metres) <span className="optional">(optional)</span></label>
          <input id={ids.accuracy} type="text" inputMode="numeric" value={form.maxAccuracyMeters} placeholder="e.g. 50" onChange={(e) => change({ maxAccuracyMeters: e.target.value })} />
          <p className="form__hint">A location less accurate than this is flagged "weak GPS". Blank: {MAX_ACCURACY_DEFAULT}.</p>
        </div>
        <div className="field">
          <label htmlFor={ids.photo}>Photo quality</label>
          <select id={ids.photo} value={form.photoQuality} onChange={(e) => change({ photoQuality: e.target.value as PhotoQuality })}>
            <option value={PhotoQuality.standard}>Standard (smaller, faster on 2G)</option>
            <option value={PhotoQuality.high}>High (more detail)</option>
          </select>
          <p className="form__hint">Phones use it from their next survey refresh.</p>
        </div>
        <div className="field">
          <label htmlFor={`${ids.photo}-retention`}>Keep personal data (days after closing) <span className="optional">(optional)</span></label>
          <input id={`${ids.photo}-retention`} type="text" inputMode="numeric" value={form.retentionDays} placeholder="e.g. 365" onChange={(e) => change({ retentionDays: e.target.value })} />
          <p className="form__hint">{RETENTION_HINT}</p>
        </div>
        <fieldset className="survey-settings__group">
          <legend>Audio audits</legend>
          <label className="check" htmlFor={ids.audio}>
            <input id={ids.audio} type="checkbox" checked={form.audioOn} onChange={(e) => change({ audioOn: e.target.checked })} />
            Record a random share of interviews
          </label>
          {form.audioOn && (
            <>
              <div className="field">
                <label htmlFor={ids.percent}>Share of interviews recorded (%)</label>
                <input id={ids.percent} type="text" inputMode="numeric" value={form.audioPercent} onChange={(e) => change({ audioPercent: e.target.value })} />
                <p className="form__hint">Chosen at random when the interview starts; the respondent is asked first and may say no.</p>
              </div>
              <div className="field">
                <label htmlFor={ids.consent}>Consent text read out at the start</label>
                <textarea id={ids.consent} rows={3} value={form.consentText} onChange={(e) => change({ consentText: e.target.value })} />
              </div>
              <Suspense fallback={null}>
                <AlwaysRecordedPicker surveyId={survey._id} chosen={form.alwaysIds} onChange={(alwaysIds) => change({ alwaysIds })} />
              </Suspense>
            </>
          )}
        </fieldset>
        <fieldset className="survey-settings__group">
          <legend>Before a response is paid</legend>
          <label className="check" htmlFor={ids.gateApproved}>
            <input id={ids.gateApproved} type="checkbox" checked={form.gateApproved} onChange={(e) => change({ gateApproved: e.target.checked })} />
            A reviewer approved it
          </label>
          <label className="check" htmlFor={ids.gateAudio}>
            <input id={ids.gateAudio} type="checkbox" checked={form.gateAudio} onChange={(e) => change({ gateAudio: e.target.checked })} />
            Its audio audit was reviewed
          </label>
          <label className="check" htmlFor={ids.gateBackcheck}>
            <input id={ids.gateBackcheck} type="checkbox" checked={form.gateBackcheck} onChange={(e) => change({ gateBackcheck: e.target.checked })} />
            Its field user's back-checks are within the threshold
          </label>
          <p className="form__hint">Payouts leave the others out and say why; field users see them as held for verification.</p>
        </fieldset>
        <Suspense fallback={null}><EncryptionSettings survey={survey} busy={busy} save={(encryptionKey, done) => send({ encryptionKey }, done)} /></Suspense>
        <div className="modal__actions">
          <button type="button" className="btn btn--ghost" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn--primary" disabled={busy}>{busy && <Spinner label="Saving" />} Save settings</button>
        </div>
        <section className="survey-settings__status" aria-label="Survey status">
          <p>
            <strong>{closed ? 'Closed' : 'Open'}</strong>
            {closed ? ': field users see it greyed out and cannot start new responses.' : ': field users can start new responses.'}
          </p>
          {closed ? (
            <button type="button" className="btn btn--ghost btn--sm" disabled={busy} onClick={() => void send({ closed: false }, 'Survey reopened')}>Reopen</button>
          ) : (
            <button type="button" className="btn btn--danger-outline btn--sm" disabled={busy} onClick={() => void close()}>Close survey</button>
          )}
        </section>
      </form>
    </Modal>
  );
}
