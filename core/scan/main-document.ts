import type { PageObservation, ResponseObservation } from './observation.ts';

const isRedirect = (r: ResponseObservation) => r.status >= 300 && r.status < 400;

/** A URL as a document address compares: no fragment, no trailing slash on the path, host lower-cased. */
function documentKey(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  parsed.hash = '';
  if (parsed.pathname.length > 1) parsed.pathname = parsed.pathname.replace(/\/+$/, '');
  return parsed.href;
}

/**
 * The response of the page's main document: the one at the final URL (a fragment or a trailing slash aside),
 * else the first document answered without a redirect (frames load after the page). Undefined only when the
 * load recorded no document at all.
 */
export function mainDocumentResponse(
  page: Pick<PageObservation, 'finalUrl' | 'responses'>,
): ResponseObservation | undefined {
  const documents = page.responses.filter((r) => !isRedirect(r));
  const exact = documents.find((r) => r.url === page.finalUrl);
  if (exact) return exact;
  const key = documentKey(page.finalUrl);
  return (
    documents.find((r) => r.resourceType === 'Document' && key !== null && documentKey(r.url) === key) ??
    documents.find((r) => r.resourceType === 'Document')
  );
}
