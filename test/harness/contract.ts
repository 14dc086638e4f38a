import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TestApi } from './api.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: { 'application/json'?: { schema: unknown } } }> }>
  >;
  components: unknown;
}

/**
 * Checks real responses against the API's own OpenAPI document (the schemas it publishes), so the document
 * cannot drift from what the API sends. Returns the validation errors; [] when the response conforms.
 */
export async function openApiContract(
  api: TestApi,
): Promise<(method: string, pathTemplate: string, response: { status: number; body: unknown }) => string[]> {
  const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as OpenApiDoc;
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  ajv.addSchema({ $id: 'doc', components: doc.components });
  // Each response's schema compiled once (compiling is most of a check's cost).
  const compiled = new Map<string, ValidateFunction>();
  return (method, pathTemplate, response) => {
    const declared = doc.paths[pathTemplate]?.[method.toLowerCase()]?.responses[String(response.status)];
    if (!declared) return [`${method} ${pathTemplate} does not declare status ${response.status}`];
    const schema = declared.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${pathTemplate} ${response.status} declares no JSON schema`];
    const key = `${method.toUpperCase()} ${pathTemplate} ${response.status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object,
      );
      compiled.set(key, validate);
    }
    return validate(response.body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
}
