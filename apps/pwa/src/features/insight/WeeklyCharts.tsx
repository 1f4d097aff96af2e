import type { ByWeeksReply } from '@survey-bird/contracts';
import type { ChartConfiguration } from 'chart.js';
import { useEffect, useId, useMemo, useState } from 'react';
import { api } from '../../api';
import { formatNaira, formatNumber } from '../../ui/format';
import { useLanguage, useT } from '../../lib/i18n';
import { ChartCanvas } from './ChartCanvas';
import { dayLabels, localIso, selectableWeeks, weekDays } from './weeks';

const BRAND = '#0f766e';
const ACCENT = '#d97706';
const GRID = '#eef2f6';
const FULL_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * One week of a survey: responses per day and naira earned per day, with the week selector
 * (spec section 9: current week plus 9 earlier, Sunday first). The by-weeks call only logs its
 * errors (spec section 8): an empty week is drawn instead.
 */
export function WeeklyCharts({ surveyId, reload, payAfterReview = false }: { surveyId: string; reload: number; payAfterReview?: boolean }) {
  const t = useT();
  const lang = useLanguage();
  // The weeks' labels are in the app's language: built again when it changes.
  const weeks = useMemo(() => (lang ? selectableWeeks(new Date()) : []), [lang]);
  const [weekIndex, setWeekIndex] = useState(0);
  const week = weeks[weekIndex] ?? weeks[0]!;
  const [days, setDays] = useState<{ key: string; data: ByWeeksReply } | null>(null);
  const selectId = useId();
  const key = `${surveyId}|${week.start.getTime()}|${reload}`;

  useEffect(() => {
    const controller = new AbortController();
    api
      .call('organizationByWeeks', {
        params: { surveyId },
        query: { startDate: localIso(week.start), endDate: localIso(week.end) },
        handleErrors: false,
        signal: controller.signal,
      })
      .then(
        (data) => { if (!controller.signal.aborted) setDays({ key, data }); },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          console.error('weekly chart', err);
          setDays({ key, data: [] });
        },
      );
    return () => controller.abort();
  }, [key, surveyId, week]);

  const loading = days?.key !== key;
  const series = useMemo(() => {
    const byDay = new Map((days?.data ?? []).map((d) => [d.day, d]));
    return FULL_DAYS.map((day) => byDay.get(day) ?? { day, value: 0, amount: 0 });
  }, [days]);
  const labels = useMemo(() => dayLabels(week), [week]);

  const responses = useMemo(() => barConfig(labels, series.map((d) => d.value), BRAND, (v) => t('office.weekly.responsesCount', { count: v }), formatNumber, 4), [labels, series, t]);
  const amounts = useMemo(() => barConfig(labels, series.map((d) => d.amount), ACCENT, formatNaira, compactNaira, 1000), [labels, series]);
  const totalResponses = series.reduce((n, d) => n + d.value, 0);
  const totalAmount = series.reduce((n, d) => n + d.amount, 0);
  const describe = (fmt: (v: number) => string, pick: (d: (typeof series)[number]) => number) => series.map((d, i) => `${labels[i]}: ${fmt(pick(d))}`).join(', ');

  return (
    <section className="insight-panel insight-weekly" aria-labelledby={`${selectId}-title`} aria-busy={loading}>
      <div className="insight-panel__head">
        <div>
          <h2 id={`${selectId}-title`} className="insight-panel__title">{t('office.weekly.title')}</h2>
          <p className="insight-panel__sub">{t('office.weekly.sub')}</p>
        </div>
        <div className="week-select">
          <label htmlFor={selectId} className="insight-sr">{t('office.weekly.week')}</label>
          <select id={selectId} value={weekIndex} onChange={(e) => setWeekIndex(Number(e.target.value))}>
            {weeks.map((w, i) => (
              <option key={w.label} value={i}>{w.label}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="insight-weekly__charts">
        <figure className="insight-chart">
          <figcaption className="insight-chart__head">
            <span className="insight-chart__title">{t('office.weekly.responsesPerDay')}</span>
            <span className="insight-chart__total">{loading ? '…' : formatNumber(totalResponses)}<small>{t('office.weekly.weekTotal')}</small></span>
          </figcaption>
          <ChartCanvas config={responses} label={t('office.weekly.chartLabel', { title: t('office.weekly.responsesPerDay'), week: week.label, days: describe(formatNumber, (d) => d.value) })} />
        </figure>
        <figure className="insight-chart">
          <figcaption className="insight-chart__head">
            <span className="insight-chart__title">{t('office.weekly.amountPerDay')}</span>
            <span className="insight-chart__total">{loading ? '…' : formatNaira(totalAmount)}<small>{t('office.weekly.weekTotal')}</small></span>
          </figcaption>
          <ChartCanvas config={amounts} label={t('office.weekly.chartLabel', { title: t('office.weekly.amountEarned'), week: week.label, days: describe(formatNaira, (d) => d.amount) })} />
          {payAfterReview && <p className="insight-panel__sub">{t('office.weekly.approvedOnly')}</p>}
        </figure>
      </div>
    </section>
  );
}

/** '₦12.5k' on the axis; the tooltip gives the exact amount. */
function compactNaira(v: number): string {
  if (v >= 1_000_000) return `₦${+(v / 1_000_000).toFixed(1)}m`;
  if (v >= 1_000) return `₦${+(v / 1_000).toFixed(1)}k`;
  return `₦${v}`;
}

function barConfig(labels: string[], values: number[], color: string, exact: (v: number) => string, tick: (v: number) => string, emptyMax: number): ChartConfiguration<'bar'> {
  return {
    type: 'bar',
    data: {
      labels: weekDays(),
      datasets: [{ data: values, backgroundColor: color, hoverBackgroundColor: color, borderRadius: 6, maxBarThickness: 36 }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: { duration: 350 },
      layout: { padding: { top: 4 } },
      scales: {
        x: { grid: { display: false }, border: { color: '#cbd5e1' }, ticks: { font: { size: 12 } } },
        y: {
          beginAtZero: true,
          // An empty week still gets a readable scale instead of chart.js's 0 to 1.
          suggestedMax: values.some((v) => v > 0) ? undefined : emptyMax,
          border: { display: false },
          grid: { color: GRID },
          ticks: { precision: 0, maxTicksLimit: 5, font: { size: 12 }, callback: (v) => tick(Number(v)) },
        },
      },
      plugins: {
        tooltip: {
          displayColors: false,
          callbacks: {
            title: (items) => labels[items[0]?.dataIndex ?? 0] ?? '',
            label: (item) => exact(Number(item.raw)),
          },
        },
      },
    },
  };
}
