/** What other modules may use of devices: the summary of a person's phones. */
export { toDeviceSummary, type DeviceReportRow } from './device-summary.js';
