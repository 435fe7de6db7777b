import { apiKeyListAnswer, createApiKeyBody, createdApiKeyAnswer, deleteApiKeyBody, messageAnswer } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

export const apiKeysRoutes = [
  route({
    method: 'get',
    path: '/api/keys',
    tag: 'api-keys',
    summary: 'API keys, masked',
    access: 'admin',
    response: apiKeyListAnswer,
    handle: async ({ runtime }) => runtime.services.apiKeys.list(),
  }),
  route({
    method: 'post',
    path: '/api/keys',
    tag: 'api-keys',
    summary: 'Create an API key; the full key is in this answer only',
    access: 'admin',
    status: 201,
    body: createApiKeyBody,
    response: createdApiKeyAnswer,
    handle: async ({ body, principal, runtime }) =>
      runtime.services.apiKeys.create(body.name, principal?.kind === 'anonymous-admin' ? 'anonymous' : (principal?.username ?? null)),
  }),
  route({
    method: 'delete',
    path: '/api/keys',
    tag: 'api-keys',
    summary: 'Delete an API key, by the full key or by id',
    access: 'admin',
    body: deleteApiKeyBody,
    response: messageAnswer,
    handle: async ({ body, runtime }) => {
      await runtime.services.apiKeys.delete(body);
      return { message: 'API key deleted' };
    },
  }),
];
