import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress } from '../core/outbound.ts';
import { checkScanTarget, type HostLookup } from '../core/scan-target.ts';
import { RESPONSE_BODY_LIMIT } from '../core/webhooks/delivery.ts';

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
  /** The first 1 KB of the body. */
  responseBody: string | null;
  retryAfter: string | null;
  error: string | null;
  durationMs: number;
}

export class RefusedAddressError extends Error {}

/**
 * Sends one webhook. The host is resolved once, every address judged by the outbound rule (core/outbound.ts)
 * and the connection made to the judged address (a custom `lookup`), then the peer address is checked again
 * on the socket: a name that resolves differently between check and connect (DNS rebinding) cannot reach a
 * private address. Redirects are not followed; a 3xx is the receiver's answer like any other.
 */
export async function sendWebhook(req: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const done = (result: Omit<WebhookResponse, 'durationMs'>): WebhookResponse => ({ ...result, durationMs: Math.round(performance.now() - started) });
  const url = new URL(req.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const judge = async (name: string): Promise<string[]> => {
    const verdict = await checkScanTarget(name, { allowLoopback: req.allowLoopback, lookup: req.lookup });
    if (!verdict.allowed) throw new RefusedAddressError(verdict.reason);
    return verdict.addresses;
  };
  try {
    if (isIP(host)) await judge(host);
    const response = await new Promise<{ status: number; body: string; retryAfter: string | null }>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        {
          method: 'POST',
          headers: { ...req.headers, 'content-length': Buffer.byteLength(req.body).toString() },
          agent: false,
          lookup: (name: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
            judge(name).then(
              (addresses) => {
                const all = addresses.map((address) => ({ address, family: isIP(address) }));
                if (options.all) callback(null, all);
                else callback(null, all[0]!.address, all[0]!.family);
              },
              (error: Error) => callback(error, ''),
            );
          },
        } as Parameters<typeof httpRequest>[1],
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
            resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), retryAfter: headerValue(incoming.headers['retry-after']) });
          };
          incoming.on('end', finish);
          incoming.on('close', finish);
          incoming.on('error', finish);
        },
      );
      const timer = setTimeout(() => outgoing.destroy(new Error(`no response within ${req.timeoutMs / 1000} s`)), req.timeoutMs);
      outgoing.on('socket', (socket) => {
        socket.once('connect', () => {
          const peer = socket.remoteAddress ?? '';
          const verdict = classifyAddress(peer);
          if (verdict === 'private' || (verdict === 'loopback' && !req.allowLoopback)) {
            outgoing.destroy(new RefusedAddressError(`connected to ${peer}, a private or special-use address`));
          }
        });
      });
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      outgoing.end(req.body);
    });
    return done({ responseCode: response.status, responseBody: response.body, retryAfter: response.retryAfter, error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}` });
  } catch (error) {
    const message = error instanceof RefusedAddressError ? `refused: ${error.message}` : (error as Error).message || String(error);
    return done({ responseCode: null, responseBody: null, retryAfter: null, error: message });
  }
}

const headerValue = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));
