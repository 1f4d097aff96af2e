import type { Survey } from '@survey-bird/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../api';

/** The organization's surveys for a survey choice (the first page: the office picks among its recent ones). */
export function useOrganizationSurveys(): Survey[] {
  const [surveys, setSurveys] = useState<Survey[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api.call('organizationSurveys', { query: { page: 1, searchQuery: '' }, signal: controller.signal, handleErrors: false })
      .then((reply) => setSurveys(reply.survey))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return surveys;
}
