import { useId } from 'react';
import { EyeIcon, EyeOffIcon } from './icons';
import { useT } from '../lib/i18n';

interface PasswordFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  visible: boolean;
  onToggle?: () => void;
  autoComplete: 'current-password' | 'new-password';
  name?: string;
}

/** A password input; the show/hide toggle is rendered when `onToggle` is given. */
export function PasswordField({ label, value, onChange, visible, onToggle, autoComplete, name }: PasswordFieldProps) {
  const t = useT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field__control">
        <input
          id={id}
          name={name}
          type={visible ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
        {onToggle && (
          <button type="button" className="field__toggle" aria-label={visible ? t('password.hide') : t('password.show')} aria-pressed={visible} onClick={onToggle}>
            {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        )}
      </div>
    </div>
  );
}

export function TextField({ label, value, onChange, type = 'text', autoComplete, readOnly, name, placeholder }: {
  label: string;
  value: string;
  onChange?: (value: string) => void;
  type?: 'text' | 'email';
  autoComplete?: string;
  readOnly?: boolean;
  name?: string;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        readOnly={readOnly}
        placeholder={placeholder}
        autoComplete={autoComplete}
        inputMode={type === 'email' ? 'email' : undefined}
        onChange={(e) => onChange?.(e.target.value)}
      />
    </div>
  );
}
