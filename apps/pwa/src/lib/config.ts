/** Deployment-specific addresses; set VITE_SUPPORT_EMAIL / VITE_SALES_EMAIL at build time. */
export const SUPPORT_EMAIL: string = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@surveybird.app';
export const SALES_EMAIL: string = import.meta.env.VITE_SALES_EMAIL ?? 'sales@surveybird.app';
