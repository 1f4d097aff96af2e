import type { Survey } from '@survey-bird/contracts';
import { api } from '../../api';
import { Modal } from '../../ui/Modal';
import { SearchBox } from '../team/ListControls';
import { usePagedList } from '../team/usePagedList';
import '../team/team.css';
import type { SurveyListRoute } from './active-survey-store';
import { useT } from '../../lib/i18n';

interface SurveyPickerProps {
  /** 'organizationSurveys' for an organisation, 'fieldUserSurveys' for a field user (and 'supervisorSurveys'). */
  route: SurveyListRoute;
  activeId: string | undefined;
  /** How many surveys the account has, for 'Search all your {total} surveys'. */
  total: number;
  onChoose: (survey: Survey) => void;
  onClose: () => void;
}

/** Spec section 2, screen 2: search, prev and more, the titles with the active one highlighted. */
export function SurveyPicker({ route, activeId, total, onChoose, onClose }: SurveyPickerProps) {
  const t = useT();
  const list = usePagedList(({ page, searchQuery, signal }) => api.call(route, { query: { page, searchQuery }, signal }));
  const surveys = list.data?.survey ?? [];
  return (
    <Modal open title={t('survey.choose')} onClose={onClose} className="modal--picker">
      <SearchBox value={list.search} onChange={list.setSearch} placeholder={t('survey.searchAll', { count: total })} label={t('survey.search')} />
      <ul className="pick-list" aria-busy={list.loading} aria-label={t('nav.surveys')}>
        {list.loading
          ? [0, 1, 2, 3].map((i) => <li key={i} className="pick-list__placeholder" aria-hidden="true"><span className="skeleton-bar" /></li>)
          : surveys.map((s) => (
              <li key={s._id}>
                <button
                  type="button"
                  className={`pick-list__item${s._id === activeId ? ' is-active' : ''}${s.closed ? ' is-closed' : ''}`}
                  aria-current={s._id === activeId ? 'true' : undefined}
                  onClick={() => {
                    onChoose(s);
                    onClose();
                  }}
                >
                  <span className="pick-list__title">{s.title}</span>
                  {s.closed && <span className="badge">{t('survey.closed')}</span>}
                  {s._id === activeId && <span className="badge badge--brand">{t('survey.activeBadge')}</span>}
                </button>
              </li>
            ))}
      </ul>
      {!list.loading && surveys.length === 0 && (
        <p className="pick-list__empty">{list.query ? t('survey.notFound', { query: list.query }) : t('survey.empty')}</p>
      )}
      <div className="pick-list__paging">
        <button type="button" className="btn btn--ghost btn--sm" disabled={list.page <= 1 || !list.data?.hasPreviousPage || list.loading} onClick={() => list.setPage(list.page - 1)}>{t('pager.prev')}</button>
        <button type="button" className="btn btn--ghost btn--sm" disabled={!list.data?.hasNextPage || list.loading} onClick={() => list.setPage(list.page + 1)}>{t('pager.more')}</button>
      </div>
    </Modal>
  );
}
