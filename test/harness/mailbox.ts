import { waitUntil } from '../../stack/proc.ts';
import { startTestApi, TestClock, type TestApi } from './api.ts';
import { freePort } from './isolated.ts';
import { registerSecret } from './log-sink.ts';
import { testSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../fixtures/smtp.ts';

/** Reading the account mail a test SMTP server received: by recipient and subject, and the links in it. */
export function mailbox(smtp: TestSmtpServer, baseUrl: string) {
  const to = (email: string) =>
    smtp.messages.filter((m) => m.to.some((address) => address.toLowerCase() === email.toLowerCase()));
  return {
    to,
    /** The `n`th mail (1-based) to `email` with this subject, once it has arrived. */
    async mail(email: string, subject: string, n = 1): Promise<ReceivedMail> {
      const matching = () => to(email).filter((m) => m.subject === subject);
      await waitUntil(`mail ${n} "${subject}" to ${email}`, async () => matching().length >= n, 30_000, 100);
      return matching()[n - 1]!;
    },
    /** The path and query of the one-use `path` link the mail carries (registered as a secret: no log may show it). */
    link(message: ReceivedMail, path: string): string {
      const origin = baseUrl.replace(/\/$/, '').replace(/[.]/g, '\\.');
      const found = new RegExp(`${origin}(${path}\\?token=([A-Za-z0-9_-]{43}))`).exec(message.text);
      if (!found) throw new Error(`no ${path} link in: ${message.text}`);
      registerSecret(found[2]);
      return found[1]!;
    },
  };
}

/** The token of a link path from `mailbox().link`. */
export const tokenOf = (linkPath: string): string => new URL(linkPath, 'http://x').searchParams.get('token') ?? '';

/**
 * A test SMTP server, an API on a test clock that sends its account mail there (with `env` besides), and the
 * mailbox over it; `close` stops both.
 */
export async function startMailingApi(env: Record<string, string> = {}) {
  const smtp = testSmtpServer(await freePort());
  await smtp.start();
  const api: TestApi = await startTestApi({
    clock: new TestClock(),
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'WebPerf <account@perf.example.test>', ...env },
  });
  return {
    smtp,
    api,
    box: mailbox(smtp, api.config.baseUrl),
    close: async () => {
      await api.close();
      await smtp.stop();
    },
  };
}
