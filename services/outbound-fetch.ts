import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { HostLookup } from '../infra/scan-target.ts';
import { guardPeer, judgedLookup, judgeHost } from './outbound-connection.ts';

export const OUTBOUND_FETCH_USER_AGENT = 'WebPerf-Scanner/1.0 (client metadata)';

export interface OutboundFetchOptions {
  allowLoopback: boolean;
  /** The whole exchange, connect to last body byte. */
  timeoutMs: number;
  maxBytes: number;
  /** A CA trusted in addition to the system's (tests' self-signed https). */
  ca?: string | Buffer;
  lookup?: HostLookup;
}

/**
 * A WHATWG-shaped `fetch` for untrusted URLs (oidc-provider's `fetch` option): https only, GET/HEAD only,
 * the outbound address rule applied as for webhooks (services/outbound-connection.ts), redirects returned as
 * they are (never followed), the body capped and the whole exchange bounded by `timeoutMs` and `init.signal`.
 * `init.dispatcher` (undici's) is ignored: the request goes through node:https.
 */
export function outboundFetch(
  options: OutboundFetchOptions,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const rule = { allowLoopback: options.allowLoopback, lookup: options.lookup };
  const ca = options.ca ? [...rootCertificates, options.ca.toString()] : undefined;
  return async (input, init = {}) => {
    const url = new URL(input);
    if (url.protocol !== 'https:') throw new Error(`refused: only https URLs are fetched, not ${url.protocol}`);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD')
      throw new Error(`refused: only GET and HEAD requests are sent, not ${method}`);
    const headers: Record<string, string> = { 'user-agent': OUTBOUND_FETCH_USER_AGENT };
    const accept = new Headers(init.headers).get('accept');
    if (accept) headers.accept = accept;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([timeout, init.signal]) : timeout;
    const abortError = () =>
      timeout.aborted
        ? new Error(`no response within ${options.timeoutMs / 1000} s`)
        : signal.reason instanceof Error
          ? signal.reason
          : new Error('request aborted');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node's lookup is not asked for an address literal, so that one is judged here.
    if (isIP(host)) await judgeHost(host, rule);

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        outcome();
      };
      const fail = (error: Error) => settle(() => reject(error));
      const outgoing = httpsRequest(
        url,
        { method, headers, agent: false, ca, lookup: judgedLookup(rule) },
        (incoming: IncomingMessage) => {
          const status = incoming.statusCode ?? 0;
          if (status < 200 || status > 599) {
            incoming.destroy();
            return fail(new Error(`unexpected HTTP status ${status}`));
          }
          const responseHeaders = toHeaders(incoming.headers);
          if ((status >= 300 && status < 400) || method === 'HEAD') {
            // A redirect's body is nobody's business: the status and headers are the answer.
            incoming.destroy();
            return settle(() => resolve(new Response(null, { status, headers: responseHeaders })));
          }
          const chunks: Buffer[] = [];
          let received = 0;
          incoming.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > options.maxBytes) {
              incoming.destroy();
              return fail(new Error('response too large'));
            }
            chunks.push(chunk);
          });
          incoming.on('end', () =>
            settle(() =>
              resolve(
                new Response(status === 204 || status === 205 ? null : Buffer.concat(chunks), {
                  status,
                  headers: responseHeaders,
                }),
              ),
            ),
          );
          incoming.on('error', fail);
          incoming.on('close', () => fail(new Error('connection closed before the response was complete')));
        },
      );
      const onAbort = () => {
        fail(abortError());
        outgoing.destroy();
      };
      guardPeer(outgoing, rule);
      outgoing.on('error', fail);
      // The signal may have fired while the address literal was judged.
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort);
      outgoing.end();
    });
  };
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
