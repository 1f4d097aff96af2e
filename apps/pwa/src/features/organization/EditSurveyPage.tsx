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
        const latest = handed ?? (await api.call('surveyVersions', { params: { id: surveyId }, query: { page: 1, searchQuery: '' } })).versions[0];
        if (!latest) throw new Error('no version');
        const questions = await Promise.all(latest.questions.map(async (q) => {
          if (q.type !== QuestionType.largeSelect) return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: q.options, ...(q.showIf ? { showIf: q.showIf } : {}), ...(q.constraint ? { constraint: q.constraint } : {}) };
          const list = await api.call('datasetExport', { query: { survey_id: surveyId, question: q.text } });
          return { id: q.id, text: q.text, type: q.type, compulsory: q.compulsory, options: list.options, ...(q.showIf ? { showIf: q.showIf } : {}) };
        }));
        const expected = handed && 'expectedResponseCount' in handed && handed.expectedResponseCount !== null ? String(handed.expectedResponseCount) : '';
        const version = handed && 'version' in handed ? handed.version : 'version' in latest ? latest.version : undefined;
        if (alive) setLoaded({ survey: { _id: surveyId, title: latest.title, version }, initial: { ...EMPTY_BUILDER, title: latest.title, description: latest.description, expected, questions } });
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
