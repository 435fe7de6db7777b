import { create } from 'zustand';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export type ToastKind = 'info' | 'success' | 'error' | 'loading';

export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
  /** Epoch ms at which it closes. */
  closesAt: number;
}

export const MAX_TOASTS = 5;
export const TOAST_MS = 15_000;
export const TOAST_FINISHED_MS = 5_000;

interface ToastState {
  toasts: Toast[];
  /** Shows a toast, or updates the one with this id; at most 5 are shown (the oldest goes). */
  show: (toast: { id?: string; kind: ToastKind; message: string }) => string;
  dismiss: (id: string) => void;
}

let counter = 0;

export const useToasts = create<ToastState>((set, get) => ({
  toasts: [],
  show: ({ id, kind, message }) => {
    const key = id ?? `toast-${++counter}`;
    const existing = get().toasts.find((toast) => toast.id === key);
    // An existing toast finished by a success or an error closes sooner (SPEC.md §9).
    const finished = existing && (kind === 'success' || kind === 'error');
    const closesAt = Date.now() + (finished ? TOAST_FINISHED_MS : TOAST_MS);
    set((state) => {
      const others = state.toasts.filter((toast) => toast.id !== key);
      const next = existing
        ? state.toasts.map((toast) => (toast.id === key ? { ...toast, kind, message, closesAt } : toast))
        : [...others, { id: key, kind, message, closesAt }];
      return { toasts: next.slice(-MAX_TOASTS) };
    });
    return key;
  },
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

export const toast = {
  info: (message: string, id?: string) => useToasts.getState().show({ id, kind: 'info', message }),
  success: (message: string, id?: string) => useToasts.getState().show({ id, kind: 'success', message }),
  error: (message: string, id?: string) => useToasts.getState().show({ id, kind: 'error', message }),
  loading: (message: string, id?: string) => useToasts.getState().show({ id, kind: 'loading', message }),
};

const KIND_STYLE: Record<ToastKind, string> = {
  info: 'border-blue-500',
  success: 'border-emerald-500',
  error: 'border-red-500',
  loading: 'border-amber-500',
};

/** Bottom-right, dark, at most 5. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts((state) => state.toasts);
  const dismiss = useToasts((state) => state.dismiss);
  useEffect(() => {
    if (toasts.length === 0) return;
    const next = Math.min(...toasts.map((item) => item.closesAt));
    const timer = setTimeout(
      () => {
        const now = Date.now();
        for (const item of useToasts.getState().toasts) if (item.closesAt <= now) dismiss(item.id);
      },
      Math.max(0, next - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [toasts, dismiss]);
  return (
    <div className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2" aria-live="polite">
      {toasts.map((item) => (
        <div
          key={item.id}
          role={item.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          className={`pointer-events-auto flex items-start gap-2 rounded-md border-l-4 bg-gray-800 px-3 py-2 text-sm text-gray-100 shadow-lg ${KIND_STYLE[item.kind]}`}
        >
          <span className="flex-1 break-words">{item.message}</span>
          <button type="button" className="text-gray-400 hover:text-white" aria-label={t('common.close')} onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
