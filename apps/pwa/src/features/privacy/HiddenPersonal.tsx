import type { ReactNode } from 'react';
import { PERSONAL_MASK } from '@survey-bird/contracts';
import { EyeOffIcon } from '../../ui/icons';
import { useT } from '../../lib/i18n';

/** A personal answer kept from this reader: said plainly, never mistaken for an answer. */
export function HiddenPersonal() {
  const t = useT();
  return <span className="resp-hidden" title={t('office.hidden.title')}><EyeOffIcon size={14} />{PERSONAL_MASK}</span>;
}

/** A whole view of which part is kept from this reader (the map's places, for an analyst): said once, above it. */
export function HiddenPersonalNote({ children }: { children: ReactNode }) {
  return <p className="hidden-note" role="note"><EyeOffIcon size={16} /><span>{children}</span></p>;
}
