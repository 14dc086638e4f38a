import type { CDPSession } from 'puppeteer-core';

export interface NetworkCapture {
  headersByUrl: Map<string, Record<string, string>>;
  /** The last main-document URL the browser asked for (after redirects). */
  documentUrl: string | null;
  documentRequestIds: string[];
  redirects: Array<{ url: string; status: number }>;
}

/** Response headers of every request and the main document's redirect hops, from the page's own CDP session. */
export async function captureNetwork(session: CDPSession): Promise<NetworkCapture> {
  const capture: NetworkCapture = { headersByUrl: new Map(), documentUrl: null, documentRequestIds: [], redirects: [] };
  session.on(
    'Network.requestWillBeSent',
    (event: {
      requestId: string;
      type?: string;
      request: { url: string };
      redirectResponse?: { url: string; status: number };
    }) => {
      if (event.type === 'Document') capture.documentUrl = event.request.url;
      if (event.type === 'Document' && event.redirectResponse)
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
      if (event.type === 'Document') capture.documentRequestIds.push(event.requestId);
    },
  );
  await session.send('Network.enable');
  return capture;
}

const GENERATOR = [
  /<meta\s+[^>]*name=["']generator["'][^>]*content=["']([^"']{1,200})["']/i,
  /<meta\s+[^>]*content=["']([^"']{1,200})["'][^>]*name=["']generator["']/i,
];

/** The main document's `<meta name="generator">` (WordPress, ...), read from its body as the browser received it. */
export async function documentGenerator(session: CDPSession, capture: NetworkCapture): Promise<string | null> {
  const documentId = capture.documentRequestIds.at(-1);
  if (!documentId) return null;
  const body = (await session.send('Network.getResponseBody', { requestId: documentId }).catch(() => null)) as {
    body: string;
    base64Encoded: boolean;
  } | null;
  const html = body ? (body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body) : '';
  for (const pattern of GENERATOR) {
    const found = pattern.exec(html)?.[1];
    if (found) return found;
  }
  return null;
}
