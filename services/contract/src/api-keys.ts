import { z } from 'zod';

export const apiKeyListAnswer = z.array(
  z.object({
    id: z.number(),
    name: z.string(),
    key: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    /** Who created the key: an administrator's username, "anonymous" (require-login off), or null (older keys). */
    created_by: z.string().nullable(),
  }),
);
export type ApiKeyListing = z.infer<typeof apiKeyListAnswer>[number];

export const createApiKeyBody = z.object({ name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });
export const createdApiKeyAnswer = z.object({ name: z.string(), key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeyAnswer>;

export const deleteApiKeyBody = z
  .object({ key: z.string().min(1).max(200).optional(), id: z.number().int().positive().max(2_147_483_647, 'is not a key id').optional() })
  .refine((body) => body.key !== undefined || body.id !== undefined, 'key or id is required');
