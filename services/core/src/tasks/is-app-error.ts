import { AppError } from '../errors/app-error.js';

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
