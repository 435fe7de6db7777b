import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Password field with a show/hide toggle. */
export function PasswordInput({
  id,
  label,
  value,
  onChange,
  autoComplete,
  required = true,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          className="input"
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          required={required}
        />
        <button type="button" className="btn-secondary shrink-0" aria-pressed={shown} aria-controls={id} onClick={() => setShown(!shown)}>
          {shown ? t('common.hide') : t('common.show')}
        </button>
      </div>
    </div>
  );
}
