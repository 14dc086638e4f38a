import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { HostLookup } from '../infra/scan-target.ts';
import { replyExcerpt, RESPONSE_BODY_LIMIT } from '../core/webhooks/delivery.ts';
import { guardPeer, judgedLookup, judgeHost, outboundFailureText, RefusedAddressError } from './outbound-connection.ts';

export { RefusedAddressError };

/** One webhook POST as it goes out. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowLoopback: boolean;
  /** Tests resolve names their own way; the system resolver otherwise. */
  lookup?: HostLookup;
}

/** What came back: a status (any, redirects included: they are not followed) or an error. */
export interface WebhookResponse {
  responseCode: number | null;
  /** The first 1 KB of the body as stored (core/webhooks/delivery.ts replyExcerpt: no NUL, no invalid UTF-8). */
  responseBody: string | null;
  retryAfter: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * Sends one webhook. The host is resolved once, every address judged by the outbound rule (core/outbound.ts)
 * and the connection made to the judged address (a custom `lookup`), then the peer address is checked again
 * on the socket: a name that resolves differently between check and connect (DNS rebinding) cannot reach a
 * private address. Redirects are not followed; a 3xx is the receiver's answer like any other.
 */
export async function sendWebhook(req: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const done = (result: Omit<WebhookResponse, 'durationMs'>): WebhookResponse => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  const url = new URL(req.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const rule = { allowLoopback: req.allowLoopback, lookup: req.lookup };
  try {
    if (isIP(host)) await judgeHost(host, rule);
    const response = await new Promise<{ status: number; body: string; retryAfter: string | null }>(
      (resolve, reject) => {
        const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const outgoing = send(
          url,
          {
            method: 'POST',
            headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body).toString() },
            agent: false,
            lookup: judgedLookup(rule),
          },
          (incoming: IncomingMessage) => {
            const chunks: Buffer[] = [];
            let kept = 0;
            incoming.on('data', (chunk: Buffer) => {
              if (kept < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - kept));
              kept += chunk.length;
              // Enough of it: the rest is not read.
              if (kept >= RESPONSE_BODY_LIMIT) incoming.destroy();
            });
            const finish = () => {
              clearTimeout(timer);
              resolve({
                status: incoming.statusCode ?? 0,
                body: replyExcerpt(Buffer.concat(chunks)),
                retryAfter: headerValue(incoming.headers['retry-after']),
              });
            };
            incoming.on('end', finish);
            incoming.on('close', finish);
            incoming.on('error', finish);
          },
        );
        const timer = setTimeout(
          () => outgoing.destroy(new Error(`no response within ${req.timeoutMs / 1000} s`)),
          req.timeoutMs,
        );
        guardPeer(outgoing, rule);
        outgoing.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
        outgoing.end(req.body);
      },
    );
    return done({
      responseCode: response.status,
      responseBody: response.body,
      retryAfter: response.retryAfter,
      error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
    });
  } catch (error) {
    return done({ responseCode: null, responseBody: null, retryAfter: null, error: outboundFailureText(error) });
  }
}

const headerValue = (value: string | string[] | undefined): string | null =>
  Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
