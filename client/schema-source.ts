import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * Generated from the service's OpenAPI document by client/generate.ts (npm run client:generate). Do not edit:
 * a test fails when this file and the served document drift.
 */

`;

/** The TypeScript types (openapi-typescript) of an OpenAPI document, as the text of schema.ts. */
export async function schemaSource(document: unknown): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: false, exportType: false });
  return HEADER + astToString(ast);
}
