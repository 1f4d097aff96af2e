import { Msg, type Survey } from '@survey-bird/contracts';

/** A closed survey: shown greyed, with the reason, and no form to start a new response in. */
export function ClosedSurvey({ survey }: { survey: Survey }) {
  return (
    <section className="fu-form fu-form--closed" aria-labelledby="closed-title">
      <header className="fu-form__head">
        <h1 id="closed-title" className="fu-form__title">{survey.title}</h1>
        <p className="fu-closed" role="status">
          <strong>{Msg.surveyClosed}.</strong> The organization closed it{survey.closedAt ? ` on ${new Date(survey.closedAt).toLocaleDateString('en-NG', { day: 'numeric', month: 'long', year: 'numeric' })}` : ''}, so no new response can be started. Responses you already submitted are still sent.
        </p>
      </header>
    </section>
  );
}

