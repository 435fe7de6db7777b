import { z } from 'zod';

/** POST /api/endSession: stop a live session, optionally showing the viewer a message first. */
export const endSessionBody = z.object({
  sessionId: z
    .string({ error: 'sessionId is required' })
    .regex(
      /^([0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|\d{1,19})$/,
      'must be a media-server session id',
    ),
  message: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});
export type EndSessionBody = z.infer<typeof endSessionBody>;
export const endSessionAnswer = z.object({ message: z.string() });
