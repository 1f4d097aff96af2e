import { Limits } from '@survey-bird/contracts';
import type { ChartConfiguration } from 'chart.js';
import { useId, useMemo } from 'react';
import { ChartCanvas } from './ChartCanvas';
import { coverage } from './coverage';

const COVERED = '#0f766e';
const NOT_COVERED = '#e2e8f0';

/** 'Covered vs Not covered': responses against the survey's expected count, the share in the centre. */
export function CoverageChart({ responses, expected, loading }: { responses: number | null; expected: number | null; loading: boolean }) {
  const c = coverage(responses ?? 0, expected);
  const titleId = useId();
  const config = useMemo<ChartConfiguration<'doughnut'>>(() => ({
    type: 'doughnut',
    data: {
      labels: ['Covered', 'Not covered'],
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
          callbacks: { label: (item) => `${item.label}: ${Number(item.raw).toLocaleString('en-NG')}` },
        },
      },
    },
  }), [c.defined, c.covered, c.notCovered]);

  const summary = c.defined
    ? `${c.label} covered: ${c.covered.toLocaleString('en-NG')} of ${expected!.toLocaleString('en-NG')} expected responses`
    : 'No expected response count is set for this survey';
  return (
    <section className="insight-panel insight-coverage" aria-labelledby={titleId} aria-busy={loading}>
      <div className="insight-panel__head">
        <div>
          <h2 id={titleId} className="insight-panel__title">Covered vs Not covered</h2>
          <p className="insight-panel__sub">Responses against the expected count</p>
        </div>
      </div>
      <div className="coverage">
        <div className="coverage__ring">
          <ChartCanvas config={config} label={summary} />
          <div className="coverage__centre" aria-hidden="true">
            <span className="coverage__percent">{loading ? '…' : c.label}</span>
            <span className="coverage__caption">covered</span>
          </div>
        </div>
        <dl className="coverage__legend">
          <div>
            <dt><span className="coverage__dot" style={{ background: COVERED }} />Covered</dt>
            <dd>{loading ? '…' : c.covered.toLocaleString('en-NG')}</dd>
          </div>
          <div>
            <dt><span className="coverage__dot" style={{ background: NOT_COVERED }} />Not covered</dt>
            <dd>{loading ? '…' : c.defined ? c.notCovered.toLocaleString('en-NG') : 'N/A'}</dd>
          </div>
        </dl>
        {!c.defined && !loading && <p className="coverage__note">No expected response count was set for this survey.</p>}
      </div>
    </section>
  );
}
