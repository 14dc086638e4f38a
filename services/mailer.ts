import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends one message; resolves once the SMTP server has accepted it. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** An SMTP reply that will not change on a retry (5xx: no such mailbox, relaying refused, ...). */
export class PermanentMailError extends Error {
  readonly responseCode: number;
  constructor(message: string, responseCode: number) {
    super(message);
    this.responseCode = responseCode;
  }
}

// Short enough that an attempt ends well within its activity's time, so a retry never overlaps a send still under way.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * nodemailer over SMTP_URL (`smtp://` with STARTTLS when the server offers it, `smtps://` for TLS from the
 * start; user and password from the URL). A new connection per message: alerts are few.
 */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const url = new URL(options.url);
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    ...TIMEOUTS,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({ from: options.from, ...mail });
      } catch (error) {
        const code = (error as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500 && code < 600)
          throw new PermanentMailError((error as Error).message, code);
        throw error;
      }
    },
    close: () => transport.close(),
  };
}
