import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';

/** Error catalogue of SPEC.md §8 for login and setup. */
export function authErrorText(error: unknown, t: TFunction, serverMessageOtherwise = false): string {
  if (!(error instanceof ApiError) || error.status === 0) return t('auth.errors.network');
  if (error.status === 401) return t('auth.errors.invalidLogin', { status: error.status });
  if (error.status === 404) return t('auth.errors.invalidUrl', { status: error.status });
  if (error.status === 429) return error.message;
  if (serverMessageOtherwise) return error.message;
  return t('auth.errors.status', { status: error.status });
}
