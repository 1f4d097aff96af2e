import type { Chart as ChartJs, ChartConfiguration, ChartType } from 'chart.js';
import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';

let chartModule: Promise<typeof import('./chart-setup')> | undefined;
const loadCharts = () => (chartModule ??= import('./chart-setup'));

interface ChartCanvasProps<T extends ChartType> {
  config: ChartConfiguration<T>;
  /** What the chart says, for screen readers (the canvas itself is a picture). */
  label: string;
  className?: string;
}

/**
 * A chart.js chart on a canvas. chart.js loads on first use; a new `config` (memoise it) updates the
 * chart in place so it animates from the old values instead of redrawing from scratch.
 */
export function ChartCanvas<T extends ChartType>({ config, label, className = '' }: ChartCanvasProps<T>) {
  const t = useT();
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<ChartJs<T> | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    if (chart.current) {
      chart.current.data = config.data;
      if (config.options) chart.current.options = config.options;
      chart.current.update();
      return;
    }
    loadCharts().then(
      ({ Chart }) => {
        if (cancelled || !canvas.current || chart.current) return;
        chart.current = new Chart(canvas.current, config);
      },
      (err: unknown) => {
        console.error('chart.js failed to load', err);
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [config]);

  useEffect(() => () => {
    chart.current?.destroy();
    chart.current = null;
  }, []);

  return (
    <div className={`chart-box ${className}`}>
      <canvas ref={canvas} role="img" aria-label={label} />
      {failed && <p className="chart-box__failed">{t('office.chart.failed')}</p>}
    </div>
  );
}
