import type { Survey } from '@survey-bird/contracts';
import { formatLocale, useT } from '../../lib/i18n';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { listOutbox, loadDraft } from '../../offline';
import { paths } from '../../lib/paths';
import { isClosedRefusal } from './closed-at-submit';
import type { AccountKey } from '../../session/account-key';

/**
 * A closed survey: shown greyed, with the reason, and no form to start a new response in. What the
 * field user made for it stays in sight: the responses the server refused as closed (kept on the
 * phone, under Responses) and an unfinished draft (kept; it is back if the survey is reopened).
 */
export function ClosedSurvey({ account, survey }: { account: AccountKey; survey: Survey }) {
  const t = useT();
  const refused = useLiveQuery(async () => (await listOutbox(account)).filter((r) => r.surveyId === survey._id && isClosedRefusal(r)).length, [account, survey._id], 0);
  const drafted = useLiveQuery(async () => {
    const draft = await loadDraft(account, survey._id);
    return draft !== undefined && Object.keys(draft.answers).length + Object.keys(draft.photos).length > 0;
  }, [account, survey._id], false);
  return (
    <section className="fu-form fu-form--closed" aria-labelledby="closed-title">
      <header className="fu-form__head">
        <h1 id="closed-title" className="fu-form__title">{survey.title}</h1>
        <p className="fu-closed" role="status">
          <strong>{t('msg.surveyClosed')}.</strong>{' '}
          {survey.closedAt
            ? t('closed.byOrganizationOn', { date: new Date(survey.closedAt).toLocaleDateString(formatLocale(), { day: 'numeric', month: 'long', year: 'numeric' }) })
            : t('closed.byOrganization')}
        </p>
        {refused > 0 && (
          <p className="fu-closed fu-closed--refused" data-testid="closed-refused">
            {t('closed.refusedCount', { count: refused })} <Link to={paths.fieldUserResponse}>{t('closed.openResponses')}</Link>
          </p>
        )}
        {drafted && <p className="fu-closed">{t('closed.draftKept')}</p>}
      </header>
    </section>
  );
}
