import { Msg, type Survey } from '@survey-bird/contracts';
import { Link } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { listOutbox, loadDraft } from '../../offline';
import { paths } from '../../routes/paths';
import { isClosedRefusal } from './closed-at-submit';
import type { AccountKey } from '../../offline/account-key';

/**
 * A closed survey: shown greyed, with the reason, and no form to start a new response in. What the
 * field user made for it stays in sight: the responses the server refused as closed (kept on the
 * phone, under Responses) and an unfinished draft (kept; it is back if the survey is reopened).
 */
export function ClosedSurvey({ account, survey }: { account: AccountKey; survey: Survey }) {
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
          <strong>{Msg.surveyClosed}.</strong> The organization closed it{survey.closedAt ? ` on ${new Date(survey.closedAt).toLocaleDateString('en-NG', { day: 'numeric', month: 'long', year: 'numeric' })}` : ''}, so no new response can be started. Responses you already submitted are still sent.
        </p>
        {refused > 0 && (
          <p className="fu-closed fu-closed--refused" data-testid="closed-refused">
            {refused === 1 ? '1 response you submitted reached the server after the close and was not accepted.' : `${refused} responses you submitted reached the server after the close and were not accepted.`}{' '}
            {refused === 1 ? 'It is' : 'They are'} kept on this phone with the reason: <Link to={paths.fieldUserResponse}>Open responses</Link>
          </p>
        )}
        {drafted && <p className="fu-closed">Your unfinished response to this survey is kept on this phone: it is here again if the organization reopens the survey.</p>}
      </header>
    </section>
  );
}
