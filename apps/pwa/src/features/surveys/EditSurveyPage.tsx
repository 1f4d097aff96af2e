import { QuestionType, type Survey } from '@survey-bird/contracts';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import { PageLoading } from '../../ui/Spinner';
import { EMPTY_BUILDER, type BuilderState } from './builder';
import { CreateSurveyPage } from './CreateSurveyPage';
import { takeEditTarget } from './edit-target';

/**
 * Edit at /survey-bird/organization/edit/$surveyId: the builder opened on the survey's latest
 * version (large selects with their whole lists, fetched), and Publish puts version n+1.
 */
export function EditSurveyPage() {
  const { surveyId = '' } = useParams({ strict: false });
  const [loaded, setLoaded] = useState<{ survey: Pick<Survey, '_id' | 'title' | 'version'>; initial: BuilderState } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    void (async () => {
      try {
        const handed = takeEditTarget(surveyId);
        const listed = handed ? undefined : await api.call('surveyVersions', { params: { id: surveyId }, query: { page: 1, searchQuery: '' } });
        const latest = handed ?? listed?.versions[0];
        if (!latest) throw new Error('no version');
        // Every field of the stored question goes back into the draft (an imported form's groups,
        // expressions, choices and translations), only a large select's option count is not one.
        const questions = await Promise.all(latest.questions.map(async ({ optionCount: _count, ...q }) => {
          if (q.type !== QuestionType.largeSelect) return q;
          if (q.choices) return { ...q, options: q.choices.map((c) => c.label) };
          const list = await api.call('datasetExport', { query: { survey_id: surveyId, question: q.text } });
          return { ...q, options: list.options };
        }));
        // The expected count is the survey's, not a version's: from the survey handed over, or the versions reply.
        const count = handed && 'expectedResponseCount' in handed ? handed.expectedResponseCount : listed?.expectedResponseCount;
        const expected = count === null || count === undefined ? '' : String(count);
        const version = handed && 'version' in handed ? handed.version : 'version' in latest ? latest.version : undefined;
        if (alive) setLoaded({ survey: { _id: surveyId, title: latest.title, version }, initial: { ...EMPTY_BUILDER, title: latest.title, description: latest.description, expected, questions, ...(latest.languages ? { languages: latest.languages } : {}), ...(latest.defaultLanguage ? { defaultLanguage: latest.defaultLanguage } : {}) } });
      } catch {
        if (alive) setFailed(true);
      }
    })();
    return () => {
      alive = false;
    };
  }, [surveyId]);

  if (failed) return <div className="placeholder">This survey could not be opened for editing. Go back to Manage Survey and try again.</div>;
  if (!loaded) return <PageLoading />;
  return <CreateSurveyPage edit={loaded} />;
}
