import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerProblems, findRoute } from './answer-check.js';

const definitions = [
  {
    method: 'get' as const,
    path: '/webhooks/:id',
    summary: 'one webhook',
    tag: 'Webhooks',
    access: 'admin' as const,
    response: z.object({ id: z.string(), enabled: z.boolean() }),
    handle: async () => ({ id: 'w1', enabled: true }),
  },
  {
    method: 'post' as const,
    path: '/webhooks',
    summary: 'create',
    tag: 'Webhooks',
    access: 'admin' as const,
    status: 201,
    response: z.object({ id: z.string() }),
    handle: async () => ({ id: 'w1' }),
  },
];

const json = 'application/json; charset=utf-8';
const error = { status: 404, code: 'not_found', message: 'gone', error: 'gone', errorMessage: 'gone' };

describe('answer check', () => {
  it('finds the route of a request by method and path, parameters and query included', () => {
    expect(findRoute(definitions, 'GET', '/webhooks/abc?x=1')?.path).toBe('/webhooks/:id');
    expect(findRoute(definitions, 'POST', '/webhooks')?.status).toBe(201);
    expect(findRoute(definitions, 'GET', '/webhooks/abc/more')).toBeUndefined();
    expect(findRoute(definitions, 'GET', '/rs/webhooks/abc', '/rs')?.path).toBe('/webhooks/:id');
  });

  it('accepts answers that keep the contract', () => {
    expect(answerProblems(definitions[0]!, 200, { id: 'w1', enabled: false }, json)).toEqual([]);
    expect(answerProblems(definitions[0]!, 404, error, json)).toEqual([]);
    expect(answerProblems(definitions[1]!, 201, { id: 'w2' }, json)).toEqual([]);
  });

  it('names what is wrong in an answer that breaks it', () => {
    expect(answerProblems(definitions[0]!, 200, { id: 'w1', enabled: 'yes' }, json)).toEqual([
      'GET /webhooks/:id → 200 body.enabled: Invalid input: expected boolean, received string',
    ]);
    expect(answerProblems(definitions[0]!, 400, { message: 'bad' }, json).length).toBeGreaterThan(0);
    expect(answerProblems(definitions[1]!, 200, { id: 'w2' }, json)).toEqual(['POST /webhooks → 200: a success of this route answers 201']);
  });
});
