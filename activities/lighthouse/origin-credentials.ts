import type { CDPSession } from 'puppeteer-core';
import type { ScanCredentials } from '../../core/scan/credentials.ts';

type PausedRequest = { requestId: string; request: { url: string; headers: Record<string, string> } };

function credentialHeader(credentials: ScanCredentials): { name: string; value: string } {
  return credentials.type === 'basic'
    ? {
        name: 'Authorization',
        value: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`,
      }
    : { name: credentials.header_name, value: credentials.header_value };
}

/**
 * Adds the credentials to requests for the scanned origin only. Requests to any other origin are never
 * paused (the interception pattern names the origin) and are checked again before the header is added.
 * A paused request is always released: when Chromium refuses the modified request (a header it cannot
 * send), a request for the scanned origin fails and any other goes on unmodified, so no load waits forever.
 * `refused()` says whether that happened, so the run fails instead of scanning the page without them.
 */
export async function addOriginCredentials(
  session: CDPSession,
  origin: string,
  credentials: ScanCredentials,
): Promise<{ refused(): boolean }> {
  const header = credentialHeader(credentials);
  let refused = false;
  const release = async (event: PausedRequest) => {
    const sameOrigin = new URL(event.request.url).origin === origin;
    const headers = Object.entries(event.request.headers)
      .filter(([name]) => name.toLowerCase() !== header.name.toLowerCase())
      .map(([name, value]) => ({ name, value }));
    if (sameOrigin) headers.push(header);
    try {
      await session.send('Fetch.continueRequest', { requestId: event.requestId, headers });
      return;
    } catch {
      if (sameOrigin) refused = true;
    }
    try {
      if (sameOrigin)
        await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'AccessDenied' });
      else await session.send('Fetch.continueRequest', { requestId: event.requestId });
    } catch {
      // The request went away meanwhile (page closed or navigated), or continuing it failed too: fail it.
      await session
        .send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Failed' })
        .catch(() => undefined);
    }
  };
  session.on('Fetch.requestPaused', (event: PausedRequest) => void release(event));
  await session.send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/*`, requestStage: 'Request' }] });
  return { refused: () => refused };
}
