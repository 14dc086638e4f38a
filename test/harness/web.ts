import { request } from 'node:http';
import { registerSecretsIn } from './log-sink.ts';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  setCookies: string[];
  text: string;
}

/** One HTTP request through node:http, because fetch in jest's environment drops Origin (and Referer). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((done, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, setCookies: res.headers['set-cookie'] ?? [], text }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A browser-like client of the web area: keeps the cookies it is given, sends the site's own Origin on
 * forms and the form's CSRF token from the last page it loaded.
 */
export class WebClient {
  readonly cookies = new Map<string, string>();
  csrf = '';
  /** Extra headers on every request (X-Forwarded-For, to play another client address). */
  readonly headers: Record<string, string>;
  private readonly url: string;
  private readonly origin: string;

  /** url: where the app listens; baseUrl: its public BASE_URL (the origin browsers would send). */
  constructor(url: string, baseUrl: string, headers: Record<string, string> = {}) {
    this.url = url;
    this.origin = new URL(baseUrl).origin;
    this.headers = headers;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(res: RawResponse): RawResponse {
    for (const line of res.setCookies) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /;\s*max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
        this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1];
    if (token) this.csrf = token;
    return res;
  }

  async get(path: string): Promise<RawResponse> {
    return this.remember(
      await rawRequest(`${this.url}${path}`, { headers: { ...this.headers, cookie: this.cookieHeader() } }),
    );
  }

  /** Posts a form with the current CSRF token (unless the fields name their own) and the site's Origin (unless headers replace it). */
  async post(
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = { origin: this.origin },
  ): Promise<RawResponse> {
    registerSecretsIn(fields);
    const body = new URLSearchParams({ _csrf: this.csrf, ...fields }).toString();
    return this.remember(
      await rawRequest(`${this.url}${path}`, {
        method: 'POST',
        headers: {
          ...this.headers,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: this.cookieHeader(),
          ...headers,
        },
        body,
      }),
    );
  }

  /** Loads the sign-in page (for its token) and signs in; the response tells how it went. */
  async signIn(email: string, password: string): Promise<RawResponse> {
    if (!this.csrf) await this.get('/login');
    return this.post('/login', { email, password });
  }
}
