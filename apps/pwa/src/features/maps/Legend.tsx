import type { ResponseStatus } from '@survey-bird/contracts';
import { FLAG_COLOUR, STATUS_COLOUR, type ColourBy } from './markers';
import { msgId, useT } from '../../lib/i18n';

const STATUS_WORD: Record<ResponseStatus, string> = { approved: msgId('legend.approved'), pending: msgId('legend.pending'), returned: msgId('legend.returned'), rejected: msgId('legend.rejected') };

export function Legend({ colourBy }: { colourBy: ColourBy }) {
  const t = useT();
  const items = colourBy === 'status'
    ? (Object.keys(STATUS_COLOUR) as ResponseStatus[]).map((s) => [t(STATUS_WORD[s]), STATUS_COLOUR[s]] as const)
    : ([[t('legend.flagged'), FLAG_COLOUR.flagged], [t('legend.clean'), FLAG_COLOUR.clean]] as const);
  return (
    <ul className="map-legend" aria-label={t('legend.label')}>
      {items.map(([word, colour]) => (
        <li key={word}><span className="map-legend__dot" style={{ background: colour }} aria-hidden="true" />{word}</li>
      ))}
    </ul>
  );
}
