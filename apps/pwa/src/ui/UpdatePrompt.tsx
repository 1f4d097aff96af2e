import { applyUpdate, updateReady } from '../offline/service-worker';
import { useStore } from './store';

export function UpdatePrompt() {
  const ready = useStore(updateReady);
  if (!ready) return null;
  return (
    <div className="update-prompt" role="status">
      <span>A new version of Survey Bird is available.</span>
      <button type="button" className="btn btn--primary btn--sm" onClick={applyUpdate}>Reload to update</button>
      <button type="button" className="btn btn--ghost btn--sm" onClick={() => updateReady.set(false)}>Later</button>
    </div>
  );
}
