import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { MAX_BODY_BYTES } from '../../api/body.ts';
import { errorHandler, requestId } from '../../http/middleware.ts';
import { mountRoutes, type ApiRoute } from '../../api/route.ts';
import { createLogger } from '../../infra/logger.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { rawRequest } from '../harness/web.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('error shapes of the API', () => {
  it('404 JSON for unknown routes, with or without a token', async () => {
    const { token } = await createTestUser(api, 'pro');
    for (const path of ['/nope', '/me/extra', '/../me', '/%F0%9F%92%A9']) {
      const res = await call(api, path, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found.' });
    }
    const outside = await fetch(`${api.url}/api/v2/me`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ message: 'Not found.' });
  });

  it('405 JSON with an Allow header for a method the route does not have', async () => {
    const { token } = await createTestUser(api, 'pro');
    const res = await call(api, '/me', { token, method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ message: 'Method not allowed.' });
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('405 with Allow, not 501, for a method no route has (TRACE, PROPFIND); 404 where no route has the path', async () => {
    const { token } = await createTestUser(api, 'pro');
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
      for (const [path, allowed] of [
        ['/api/v1/me', 'HEAD, GET'],
        ['/api/v1/scans', 'HEAD, GET, POST'],
        ['/oauth/token', 'POST'],
      ] as const) {
        const res = await rawRequest(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
        expect([method, path, res.status, res.headers.allow, JSON.parse(res.text)]).toEqual([
          method,
          path,
          405,
          allowed,
          { message: 'Method not allowed.' },
        ]);
      }
      const unknown = await rawRequest(`${api.url}/api/v1/nope`, { method });
      expect([unknown.status, JSON.parse(unknown.text)]).toEqual([404, { message: 'Not found.' }]);
    }
  });

  it('every response carries a request id', async () => {
    const res = await call(api, '/nope');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('an internal error', () => {
  it('answers 500 with only a request id, and logs the detail under the same id', async () => {
    const broken = await startTestApi();
    try {
      const { token } = await createTestUser(broken, 'pro');
      await broken.db.knex.schema.dropTable('api_usage_daily');
      const res = await call(broken, '/me', { token });
      expect(res.status).toBe(500);
      const id = res.headers.get('x-request-id');
      expect(res.body).toEqual({ message: 'Server error.', request_id: id });
      const line = broken
        .logs()
        .split('\n')
        .find((l) => l.includes('unhandled error'));
      expect(line).toBeDefined();
      const entry = JSON.parse(line!) as { requestId: string; err: { message: string; stack: string } };
      expect(entry.requestId).toBe(id);
      expect(entry.err.message).toMatch(/api_usage_daily/);
      expect(entry.err.stack).toBeTruthy();
    } finally {
      await broken.close();
    }
  });
});

/** The real body reader, validator and error handler, mounted on a route with a body, as later endpoints do. */
describe('request bodies', () => {
  const echo: ApiRoute<Record<string, unknown>, { url: string; count?: number; auth?: { type: string } }> = {
    method: 'post',
    path: '/echo',
    tag: 'Test',
    summary: 'echo',
    auth: false,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 2048 },
        count: { type: 'integer', minimum: 1, maximum: 10 },
        auth: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', enum: ['basic', 'header'] } },
        },
      },
    },
    responses: { 200: { description: 'echo' } },
    handle(ctx, { body }) {
      ctx.body = { data: body };
    },
  };
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const koa = new Koa();
    const router = new Router();
    mountRoutes(router, [echo], async () => undefined);
    koa.use(requestId());
    koa.use(errorHandler(createLogger({ logLevel: 'silent' }, 'test')));
    koa.use(router.routes());
    const server = createServer(koa.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
    close = () => new Promise((r) => server.close(() => r()));
  });
  afterAll(() => close());

  const post = async (body: string | undefined, contentType = 'application/json') => {
    const res = await fetch(url, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('accepts a valid body', async () => {
    expect(await post(JSON.stringify({ url: 'https://a.example', count: 2 }))).toEqual({
      status: 200,
      body: { data: { url: 'https://a.example', count: 2 } },
    });
  });

  it('422 with field messages for missing, mistyped, out-of-range, unknown and nested fields', async () => {
    const res = await post(JSON.stringify({ count: 'two', extra: 1, auth: { type: 'digest' } }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      url: ['The url field is required.'],
      extra: ['The extra field is not allowed.'],
      count: ['The count must be an integer.'],
      'auth.type': ['The auth.type must be one of: basic, header.'],
    });
    expect(res.body.message).toBe('The url field is required. (and 3 more errors)');
    expect((await post(JSON.stringify({ url: 'x', count: 11 }))).body.errors).toEqual({
      count: ['The count may not be greater than 10.'],
    });
  });

  it('422 for a missing body and for a body that is not an object', async () => {
    expect((await post(undefined)).body).toEqual({
      message: 'The url field is required.',
      errors: { url: ['The url field is required.'] },
    });
    expect((await post('[1,2]')).body.errors).toEqual({ body: ['The body must be an object.'] });
    expect((await post('"text"')).status).toBe(422);
  });

  it('422 for malformed JSON', async () => {
    const res = await post('{"url": ');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The request body is not valid JSON.');
    expect((res.body.errors as { body: string[] }).body[0]).toMatch(/^The request body is not valid JSON: /);
  });

  it('415 for a body that is not JSON', async () => {
    expect(await post('url=https://a.example', 'application/x-www-form-urlencoded')).toEqual({
      status: 415,
      body: { message: 'The request body must be JSON (Content-Type: application/json).' },
    });
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ url: 'x'.repeat(MAX_BODY_BYTES) });
    expect(await post(big)).toEqual({
      status: 413,
      body: { message: `The request body may not be larger than ${MAX_BODY_BYTES} bytes.` },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('keeps unicode intact', async () => {
    const res = await post(JSON.stringify({ url: 'https://bücher.example/ü?q=日本語' }));
    expect(res.body).toEqual({ data: { url: 'https://bücher.example/ü?q=日本語' } });
  });
});
