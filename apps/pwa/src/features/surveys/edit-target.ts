import type { Survey } from '@survey-bird/contracts';

/**
 * The survey Manage Survey hands to the edit page, so it opens without asking the server again (a
 * reload of the edit page asks for the latest version instead, and keeps its draft).
 */
let target: Survey | null = null;

export function setEditTarget(survey: Survey): void {
  target = survey;
}

export function takeEditTarget(surveyId: string): Survey | null {
  const found = target?._id === surveyId ? target : null;
  target = null;
  return found;
}
