import { PhotoQuality, type Survey, type SurveySettingsBody, type SurveySettingsReply } from '@survey-bird/contracts';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api';
import { confirmDialog } from '../../ui/dialog-store';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/toast-store';
import { MAX_ACCURACY_DEFAULT, MIN_DURATION_DEFAULT, settingsBody, settingsForm, type SettingsForm } from './survey-settings';

/** The survey as the settings reply leaves it. */
export function withSettings(survey: Survey, reply: SurveySettingsReply): Survey {
  return {
    ...survey,
    payAfterReview: reply.payAfterReview,
    minDurationSeconds: reply.minDurationSeconds,
    maxAccuracyMeters: reply.maxAccuracyMeters,
    photoQuality: reply.photoQuality,
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
  const ids = { pay: useId(), min: useId(), accuracy: useId(), photo: useId() };
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
