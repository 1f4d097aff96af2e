import { Msg } from '@survey-bird/contracts';
import { useState } from 'react';
import { formatLocation, locationFixes } from '../field-user/form-logic';

type State = { kind: 'idle' } | { kind: 'locating' } | { kind: 'error'; text: string };

const geolocation = (): Geolocation | undefined => (typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : undefined);

function errorText(err: GeolocationPositionError): string {
  if (err.code === err.PERMISSION_DENIED) return 'Location permission was refused. Allow it in the browser settings and try again.';
  if (err.code === err.TIMEOUT) return 'No position yet. Move to open sky and try again.';
  return 'The position is not available right now. Try again.';
}

/** A live location answer: 'lat, lng (±accuracy m)' from the phone's GPS (high accuracy, no cached fix). */
export function LocationQuestion({ id, value, onAnswer }: { id: string; value: string | undefined; onAnswer: (text: string) => void }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const supported = geolocation() !== undefined;

  const capture = () => {
    const geo = geolocation();
    if (!geo) return setState({ kind: 'error', text: Msg.geolocationUnsupported });
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
        {value ?? (supported ? 'No location captured yet' : Msg.geolocationUnsupported)}
      </output>
      <button type="button" className="btn btn--ghost capture__btn" onClick={capture} disabled={state.kind === 'locating'} aria-describedby={id}>
        {state.kind === 'locating' ? 'Locating…' : value ? 'Capture again' : 'Capture location'}
      </button>
      {state.kind === 'error' && <p className="capture__error" role="alert">{state.text}</p>}
    </div>
  );
}

export default LocationQuestion;
