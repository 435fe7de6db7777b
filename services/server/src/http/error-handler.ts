import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, type ErrorBody } from '@reelstat/core';

export function sendError(res: Parameters<RequestHandler>[1], error: AppError): void {
  const body: ErrorBody = {
    status: error.status,
    code: error.code,
    message: error.message,
    error: error.message,
    errorMessage: error.message,
  };
  if (error.details !== undefined) body.details = error.details;
  res.status(error.status).json(body);
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, AppError.notFound(`No route for ${req.method} ${req.path}`));
};

/** The one error middleware: AppError → its shape; body-parser and path-decoding errors → 400/413; anything else → 500, logged. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  if (res.headersSent) return;
  if (error instanceof AppError) return sendError(res, error);
  const parserError = error as { type?: string; status?: number; expose?: boolean; message?: string };
  if (parserError.type === 'entity.too.large') return sendError(res, new AppError(413, 'payload_too_large', 'Request body is too large'));
  if (parserError.type === 'entity.parse.failed') return sendError(res, AppError.badRequest('Request body is not valid JSON'));
  // The router could not percent-decode a path parameter (e.g. an encoded lone surrogate): the client's URL is bad.
  if (error instanceof URIError && parserError.status === 400)
    return sendError(res, AppError.badRequest('The address holds a parameter that is not valid percent-encoded UTF-8'));
  if (parserError.expose && parserError.status && parserError.status < 500) {
    return sendError(res, new AppError(parserError.status, 'bad_request', parserError.message ?? 'Bad request'));
  }
  req.log?.error({ err: error }, 'unhandled error');
  sendError(res, new AppError(500, 'internal_error', 'Something went wrong on the server; see its logs for the request id'));
};
