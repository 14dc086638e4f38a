import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('OpenAPI document', () => {
  it('publishes every webhook event with its payload schema and the Standard Webhooks headers', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      webhooks: Record<
        string,
        {
          post: {
            requestBody: {
              content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }>;
            };
            parameters: Array<{ name: string }>;
          };
        }
      >;
    };
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'alert.resolved',
      'alert.triggered',
      'flow.completed',
      'flow.failed',
      'ping',
      'rum.alert.resolved',
      'rum.alert.triggered',
      'scan.completed',
    ]);
    const schema = (event: string) => doc.webhooks[event]!.post.requestBody.content['application/json']!.schema;
    expect(schema('alert.resolved').required).toEqual(
      expect.arrayContaining(['alert_id', 'severity', 'target_url', 'resolved_at']),
    );
    expect(schema('alert.triggered').properties).not.toHaveProperty('resolved_at');
    expect(Object.keys(schema('scan.completed').properties)).toEqual([
      'event',
      'url',
      'score',
      'score_speed',
      'score_images',
      'score_caching',
      'score_tech',
      'lcp_ms',
      'ttfb_ms',
      'cls',
      'tbt_ms',
      'scan_url',
      'scanned_at',
    ]);
    expect(schema('rum.alert.triggered').required).toContain('triggered_at');
    expect(schema('rum.alert.resolved').required).toContain('resolved_at');
    // The flow run events are extensions, marked as such, with the flow and its steps.
    expect(schema('flow.failed').required).toEqual(expect.arrayContaining(['flow', 'steps', 'failed_step']));
    expect((doc.webhooks['flow.completed']!.post as unknown as Record<string, unknown>)['x-extension']).toBe(true);
    expect(doc.webhooks['scan.completed']!.post.parameters.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('is public, OpenAPI 3.1, and lists every endpoint with the schemas that validate it', async () => {
    const res = await fetch(`${api.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      servers: Array<{ url: string }>;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe(`${api.config.baseUrl}/api/v1`);
    const SPEC_ENDPOINTS = [
      ['get', '/me'],
      ['get', '/scans'],
      ['post', '/scans'],
      ['get', '/scans/{id}'],
      ['post', '/scans/{id}/share/enable'],
      ['post', '/scans/{id}/share/disable'],
      ['get', '/domains'],
      ['get', '/domains/{id}/history'],
      ['get', '/alerts'],
      ['get', '/alerts/{id}'],
      ['post', '/alerts/mark-read'],
    ] as const;
    for (const [method, path] of SPEC_ENDPOINTS) {
      const op = doc.paths[path]?.[method];
      expect(op).toBeDefined();
      // A personal token, or an OAuth token whose scope allows the method (a GET needs read, the rest write).
      expect(op!.security).toEqual([{ bearer: [] }, { oauth: [method === 'get' ? 'read' : 'write'] }]);
      expect(Object.keys(op!.responses as object)).toEqual(expect.arrayContaining(['200', '401', '403', '429', '500']));
    }
    expect(doc.paths['/openapi.json']!.get!['x-extension']).toBe(true);
    expect(doc.paths['/me']!.get!['x-extension']).toBeUndefined();
    expect(doc.paths['/domains']!.get!['x-extension']).toBeUndefined();
    // Managing targets through the API is our extension of the spec.
    for (const [method, path] of [
      ['post', '/domains'],
      ['patch', '/domains/{id}'],
      ['delete', '/domains/{id}'],
    ] as const) {
      expect([method, path, doc.paths[path]?.[method]?.['x-extension']]).toEqual([method, path, true]);
    }
    expect(doc.paths['/alerts/{id}/dismiss']!.post!['x-extension']).toBe(true);
    expect(Object.keys(doc.paths['/alerts']!.get!.responses as object)).toContain('422');
    const create = doc.paths['/scans']!.post! as {
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
      responses: Record<string, unknown>;
    };
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['url']);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['200', '202', '422']));
  });

  it('is not counted against the daily limit and needs no token', async () => {
    const res = await fetch(`${api.url}/api/v1/openapi.json`, { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('examples', () => {
  type Media = { schema: unknown; example?: unknown };
  type Operation = {
    requestBody?: { content: Record<string, Media> };
    responses: Record<string, { content?: Record<string, Media> }>;
  };
  it('every operation and webhook has request and response examples derived from its schemas, and each validates', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
      webhooks: Record<string, Record<string, Operation>>;
      components: unknown;
    };
    const { Ajv } = await import('ajv');
    const addFormats = (await import('ajv-formats')).default as unknown as (
      ajv: InstanceType<typeof Ajv>,
    ) => InstanceType<typeof Ajv>;
    const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const problems: string[] = [];
    let checked = 0;
    const check = (where: string, media: Media | undefined) => {
      if (!media) return;
      if (media.example === undefined) return void problems.push(`${where}: no example`);
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/')) as object,
      );
      checked += 1;
      if (!validate(media.example)) problems.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    };
    for (const [group, entries] of [
      ['paths', doc.paths],
      ['webhooks', doc.webhooks],
    ] as const) {
      for (const [path, operations] of Object.entries(entries)) {
        for (const [method, operation] of Object.entries(operations)) {
          check(`${group} ${method} ${path} request`, operation.requestBody?.content['application/json']);
          const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
          if (
            group === 'paths' &&
            path !== '/openapi.json' &&
            !success.some(([status, r]) => status === '204' || r.content?.['application/json'])
          )
            problems.push(`${method} ${path}: no JSON success response`);
          for (const [status, response] of Object.entries(operation.responses))
            check(`${group} ${method} ${path} ${status}`, response.content?.['application/json']);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('marks a request body required exactly when the server refuses a request without one', async () => {
    const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ in: string; name: string; schema: { pattern: string } }>;
            requestBody?: { required: boolean };
          }
        >
      >;
    };
    const { token } = await createTestUser(api, 'agency');
    // A value of each path parameter's pattern: bodies are validated before the resource is looked up.
    const CANDIDATES = ['1', '0123456789abcdefghjkmnpqrs', 'password', 'scan.completed'];
    const problems: string[] = [];
    let required = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.requestBody) continue;
        let path = template;
        for (const p of (operation.parameters ?? []).filter((q) => q.in === 'path')) {
          const value = CANDIDATES.find((c) => new RegExp(p.schema.pattern).test(c));
          if (value === undefined) problems.push(`${method} ${template}: no candidate for ${p.name}`);
          path = path.replace(`{${p.name}}`, value ?? 'x');
        }
        const res = await call(api, path, { token, method: method.toUpperCase() });
        if (operation.requestBody.required) required += 1;
        if ((res.status === 422) !== operation.requestBody.required)
          problems.push(`${method} ${template}: required ${operation.requestBody.required}, answered ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(required).toBeGreaterThan(5);
    expect(doc.paths['/alerts/mark-read']!.post!.requestBody!.required).toBe(false);
    expect(doc.paths['/flows/{id}']!.patch!.requestBody!.required).toBe(false);
  });
});
