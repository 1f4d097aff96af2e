import { ArcElement, BarController, BarElement, CategoryScale, Chart, DoughnutController, LinearScale, Tooltip } from 'chart.js';

/**
 * chart.js with only what the dashboard draws (bars, a doughnut, their scales and tooltips). The
 * dashboards import this module dynamically (ChartCanvas.tsx) so it ships in its own chunk and the
 * field-user routes never download it.
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, DoughnutController, ArcElement, Tooltip);
Chart.defaults.font.family = getComputedStyle(document.documentElement).getPropertyValue('--font').trim() || 'system-ui, sans-serif';
Chart.defaults.color = '#526076';

export { Chart };
