import type { CDPSession } from 'puppeteer-core';

export interface NetworkCapture {
  headersByUrl: Map<string, Record<string, string>>;
  /** The last main-document URL the browser asked for (after redirects). */
  documentUrl: string | null;
  documentRequestIds: string[];
  /** Each document's body, read as soon as it has loaded (later, after the page was left and restored, it is gone). */
  documentBodies: Map<string, Promise<string | null>>;
  redirects: Array<{ url: string; status: number }>;
}

/**
 * A page's document over HTTP: the back/forward cache test (settings.ts) leaves the page for chrome://terms and
 * goes back, and that document is not the page's.
 */
const isPageDocument = (type: string | undefined, url: string) => type === 'Document' && /^https?:/i.test(url);

/** Response headers of every request and the main document's redirect hops, from the page's own CDP session. */
export async function captureNetwork(session: CDPSession): Promise<NetworkCapture> {
  const capture: NetworkCapture = {
    headersByUrl: new Map(),
    documentUrl: null,
    documentRequestIds: [],
    documentBodies: new Map(),
    redirects: [],
  };
  session.on(
    'Network.requestWillBeSent',
    (event: {
      requestId: string;
      type?: string;
      request: { url: string };
      redirectResponse?: { url: string; status: number };
    }) => {
      if (!isPageDocument(event.type, event.request.url)) return;
      capture.documentUrl = event.request.url;
      if (event.redirectResponse)
        capture.redirects.push({ url: event.redirectResponse.url, status: event.redirectResponse.status });
    },
  );
  session.on(
    'Network.responseReceived',
    (event: { requestId: string; type?: string; response: { url: string; headers: Record<string, string> } }) => {
      if (!capture.headersByUrl.has(event.response.url)) {
        capture.headersByUrl.set(
          event.response.url,
          Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
        );
      }
      if (isPageDocument(event.type, event.response.url)) capture.documentRequestIds.push(event.requestId);
    },
  );
  session.on('Network.loadingFinished', (event: { requestId: string }) => {
    if (capture.documentRequestIds.includes(event.requestId))
      capture.documentBodies.set(event.requestId, responseBody(session, event.requestId));
  });
  await session.send('Network.enable');
  return capture;
}

async function responseBody(session: CDPSession, requestId: string): Promise<string | null> {
  const body = (await session.send('Network.getResponseBody', { requestId }).catch(() => null)) as {
    body: string;
    base64Encoded: boolean;
  } | null;
  return body ? (body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body) : null;
}

const GENERATOR = [
  /<meta\s+[^>]*name=["']generator["'][^>]*content=["']([^"']{1,200})["']/i,
  /<meta\s+[^>]*content=["']([^"']{1,200})["'][^>]*name=["']generator["']/i,
];

/** The main document's `<meta name="generator">` (WordPress, ...), read from its body as the browser received it. */
export async function documentGenerator(session: CDPSession, capture: NetworkCapture): Promise<string | null> {
  const documentId = capture.documentRequestIds.at(-1);
  if (!documentId) return null;
  const html = (await (capture.documentBodies.get(documentId) ?? responseBody(session, documentId))) ?? '';
  for (const pattern of GENERATOR) {
    const found = pattern.exec(html)?.[1];
    if (found) return found;
  }
  return null;
}
