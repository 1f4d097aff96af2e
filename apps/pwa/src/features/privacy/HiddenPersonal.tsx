import { PERSONAL_MASK } from '@survey-bird/contracts';
import { EyeOffIcon } from '../../ui/icons';
import { useT } from '../../lib/i18n';

/** A personal answer kept from this reader: said plainly, never mistaken for an answer. */
export function HiddenPersonal() {
  const t = useT();
  return <span className="resp-hidden" title={t('office.hidden.title')}><EyeOffIcon size={14} />{PERSONAL_MASK}</span>;
}
