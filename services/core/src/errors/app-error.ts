/**
 * The one error shape of the API: `{ status, code, message, details? }`. Domain code throws AppError with a
 * stable machine code; the HTTP layer turns it into that body. Anything else becomes a 500 without internals.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(message: string, details?: unknown) {
    return new AppError(400, 'bad_request', message, details);
  }
  static unauthorized(message = 'Authentication required') {
    return new AppError(401, 'unauthorized', message);
  }
  static forbidden(message = 'Not allowed') {
    return new AppError(403, 'forbidden', message);
  }
  static notFound(message = 'Not found') {
    return new AppError(404, 'not_found', message);
  }
  static conflict(message: string) {
    return new AppError(409, 'conflict', message);
  }
}

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  /** The same text as message: the incumbent's clients read `error`, SPEC.md §8 "the server's errorMessage". */
  error: string;
  errorMessage: string;
  details?: unknown;
}
