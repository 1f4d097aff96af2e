import { useState } from 'react';
import { formatLocation, locationFixes } from './form-logic';
import { t, useT } from '../../lib/i18n';

type State = { kind: 'idle' } | { kind: 'locating' } | { kind: 'error'; text: string };

const geolocation = (): Geolocation | undefined => (typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : undefined);

function errorText(err: GeolocationPositionError): string {
  if (err.code === err.PERMISSION_DENIED) return t('location.refused');
  if (err.code === err.TIMEOUT) return t('location.timeout');
  return t('location.unavailable');
}

/** A live location answer: 'lat, lng (±accuracy m)' from the phone's GPS (high accuracy, no cached fix). */
export function LocationQuestion({ id, value, onAnswer }: { id: string; value: string | undefined; onAnswer: (text: string) => void }) {
  useT();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const supported = geolocation() !== undefined;

  const capture = () => {
    const geo = geolocation();
    if (!geo) return setState({ kind: 'error', text: t('msg.geolocationUnsupported') });
    setState({ kind: 'locating' });
    geo.getCurrentPosition(
      (pos) => {
        const text = formatLocation(pos.coords);
        locationFixes.set(text, { accuracy: pos.coords.accuracy, at: pos.timestamp });
        onAnswer(text);
        setState({ kind: 'idle' });
      },
      (err) => setState({ kind: 'error', text: errorText(err) }),
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 0 },
    );
  };

  return (
    <div className="capture">
      <output id={id} className={`location${value ? ' location--set' : ''}`} aria-live="polite">
        {value ?? (supported ? t('location.none') : t('msg.geolocationUnsupported'))}
      </output>
      <button type="button" className="btn btn--ghost capture__btn" onClick={capture} disabled={state.kind === 'locating'} aria-describedby={id}>
        {state.kind === 'locating' ? t('location.locating') : value ? t('location.again') : t('location.capture')}
      </button>
      {state.kind === 'error' && <p className="capture__error" role="alert">{state.text}</p>}
    </div>
  );
}

export default LocationQuestion;
