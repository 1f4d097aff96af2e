import { PERSONAL_MASK } from '@survey-bird/contracts';
import { EyeOffIcon } from '../../ui/icons';

/** A personal answer kept from this reader: said plainly, never mistaken for an answer. */
export function HiddenPersonal() {
  return <span className="resp-hidden" title="Personal data: your office role does not see it"><EyeOffIcon size={14} />{PERSONAL_MASK}</span>;
}
