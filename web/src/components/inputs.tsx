import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyDaysInput, PAGE_SIZES } from '../lib/rules';

/** Days window: a number, minimum 1, applied on Enter (SPEC.md §4). */
export function DaysInput({ value, onApply, label }: { value: number; onApply: (days: number) => void; label: string }) {
  const id = useId();
  const [text, setText] = useState(String(value === 0 ? 1 : value));
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-gray-300">
        {label}
      </label>
      <input
        id={id}
        type="number"
        min={1}
        inputMode="numeric"
        className="input w-24"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          const { display, applied } = applyDaysInput(text);
          setText(String(display));
          onApply(applied);
        }}
      />
    </div>
  );
}

/** Search box debounced by 300 ms. */
export function SearchInput({ value, onSearch, label }: { value: string; onSearch: (text: string) => void; label: string }) {
  const [text, setText] = useState(value);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text), 300);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <input
      type="search"
      className="input w-full sm:w-64"
      placeholder={label}
      aria-label={label}
      value={text}
      onChange={(e) => setText(e.target.value)}
    />
  );
}

export function PageSizeSelect({ value, onChange }: { value: number; onChange: (size: number) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-gray-400">
        {t('common.pageSize')}
      </label>
      <select id={id} className="input w-20" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/** First / previous / next / last. `page` is 1-based. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const last = Math.max(1, pages);
  return (
    <nav className="flex items-center gap-1" aria-label={t('common.pagination')}>
      <button
        type="button"
        className="btn-secondary px-2 py-1"
        disabled={page <= 1}
        onClick={() => onPage(1)}
        aria-label={t('common.first')}
      >
        «
      </button>
      <button
        type="button"
        className="btn-secondary px-2 py-1"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('common.previous')}
      >
        ‹
      </button>
      <span className="px-2 text-sm text-gray-400" data-testid="pager-status">
        {t('common.pageOf', { page, pages: last })}
      </span>
      <button
        type="button"
        className="btn-secondary px-2 py-1"
        disabled={page >= last}
        onClick={() => onPage(page + 1)}
        aria-label={t('common.next')}
      >
        ›
      </button>
      <button
        type="button"
        className="btn-secondary px-2 py-1"
        disabled={page >= last}
        onClick={() => onPage(last)}
        aria-label={t('common.last')}
      >
        »
      </button>
    </nav>
  );
}

export function Switch({
  checked,
  onChange,
  label,
  disabled,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-400 disabled:opacity-50 ${checked ? 'bg-blue-600' : 'bg-gray-700'}`}
    >
      <span className={`inline-block h-4 w-4 rounded-full bg-white transition-transform ${checked ? 'translate-x-6' : 'translate-x-1'}`} />
    </button>
  );
}

export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: Array<{ id: T; label: string }>;
  value: T;
  onChange: (tab: T) => void;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="mb-4 flex flex-wrap gap-1 border-b border-gray-800">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === value}
          onClick={() => onChange(tab.id)}
          className={`-mb-px border-b-2 px-3 py-2 text-sm ${tab.id === value ? 'border-blue-500 text-white' : 'border-transparent text-gray-400 hover:text-gray-200'}`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
