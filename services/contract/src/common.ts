import { z } from 'zod';

/**
 * The API contract shared by the server (validation, OpenAPI) and the dashboard (types, form rules).
 * Files in this folder import only zod: the web bundles them.
 */
export const messageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswer>;

/** The one error body of every failure. */
export const errorAnswer = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
  /** The same text as message, where the incumbent's clients (and SPEC.md §8) read it. */
  error: z.string(),
  errorMessage: z.string(),
  details: z.unknown().optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswer>;

/** What the browser sends for a password: the SHA3-512 digest in lowercase hex (SPEC.md §5). */
export const passwordDigest = z
  .string()
  .regex(/^[0-9a-f]{128}$/, 'must be the SHA3-512 hex digest of the password, as the dashboard sends it');

export const username = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
