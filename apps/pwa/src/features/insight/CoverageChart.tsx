import { Limits } from '@survey-bird/contracts';
import type { ChartConfiguration } from 'chart.js';
import { useId, useMemo } from 'react';
import { ChartCanvas } from './ChartCanvas';
import { coverage } from './coverage';
import { useT } from '../../lib/i18n';
import { formatNumber } from '../../ui/format';

const COVERED = '#0f766e';
const NOT_COVERED = '#e2e8f0';

/** 'Covered vs Not covered': responses against the survey's expected count, the share in the centre. */
export function CoverageChart({ responses, expected, loading }: { responses: number | null; expected: number | null; loading: boolean }) {
  const t = useT();
  const c = coverage(responses ?? 0, expected);
  const coveredWord = t('office.coverage.covered');
  const notCoveredWord = t('office.coverage.notCovered');
  const titleId = useId();
  const config = useMemo<ChartConfiguration<'doughnut'>>(() => ({
    type: 'doughnut',
    data: {
      labels: [coveredWord, notCoveredWord],
      // Without a target the ring is drawn as an empty track.
      datasets: [{ data: c.defined ? [c.covered, c.notCovered] : [0, 1], backgroundColor: [COVERED, NOT_COVERED], hoverBackgroundColor: [COVERED, '#cbd5e1'], borderWidth: 0 }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      cutout: Limits.doughnutCutout,
      animation: { duration: 400 },
      plugins: {
        tooltip: {
          enabled: c.defined,
          displayColors: false,
          callbacks: { label: (item) => `${item.label}: ${formatNumber(Number(item.raw))}` },
        },
      },
    },
  }), [c.defined, c.covered, c.notCovered, coveredWord, notCoveredWord]);

  const summary = c.defined
    ? t('office.coverage.summary', { pct: c.label, covered: formatNumber(c.covered), expected: formatNumber(expected!) })
    : t('office.coverage.noTarget');
  return (
    <section className="insight-panel insight-coverage" aria-labelledby={titleId} aria-busy={loading}>
      <div className="insight-panel__head">
        <div>
          <h2 id={titleId} className="insight-panel__title">{t('office.coverage.title')}</h2>
          <p className="insight-panel__sub">{t('office.coverage.sub')}</p>
        </div>
      </div>
      <div className="coverage">
        <div className="coverage__ring">
          <ChartCanvas config={config} label={summary} />
          <div className="coverage__centre" aria-hidden="true">
            <span className="coverage__percent">{loading ? '…' : c.label}</span>
            <span className="coverage__caption">{t('office.coverage.caption')}</span>
          </div>
        </div>
        <dl className="coverage__legend">
          <div>
            <dt><span className="coverage__dot" style={{ background: COVERED }} />{coveredWord}</dt>
            <dd>{loading ? '…' : formatNumber(c.covered)}</dd>
          </div>
          <div>
            <dt><span className="coverage__dot" style={{ background: NOT_COVERED }} />{notCoveredWord}</dt>
            <dd>{loading ? '…' : c.defined ? formatNumber(c.notCovered) : t('common.na')}</dd>
          </div>
        </dl>
        {!c.defined && !loading && <p className="coverage__note">{t('office.coverage.noTargetNote')}</p>}
      </div>
    </section>
  );
}
