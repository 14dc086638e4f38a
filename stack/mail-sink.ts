import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SMTPServer } from 'smtp-server';
import type { Config } from '../infra/config.ts';

export interface MailSink {
  url: string;
  /** Where each message lands, one .eml file per message. */
  dir: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The start command's stand-in for a mail server: an SMTP server (smtp-server) on SMTP_URL's loopback port
 * that accepts every message and writes it, as received, to STATE_DIR/mail/<time>-<random>.eml, so a
 * newcomer can open the alert e-mails. Not started when SMTP_URL names another host (a real server) or
 * the port is taken (then whatever listens there gets the mail); null in those cases.
 */
export async function startMailSink(
  config: Pick<Config, 'mail' | 'stateDir'>,
  log: (msg: string) => void,
): Promise<MailSink | null> {
  const url = config.mail.smtpUrl ? new URL(config.mail.smtpUrl) : null;
  if (!url || url.protocol !== 'smtp:' || !LOOPBACK.has(url.hostname)) return null;
  const dir = resolve(config.stateDir, 'mail');
  mkdirSync(dir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const file = resolve(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.eml`,
      );
      pipeline(stream, createWriteStream(file)).then(
        () => callback(),
        (error: Error) => callback(error),
      );
    },
  });
  const port = Number(url.port || 25);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => ready());
    });
  } catch (error) {
    log(
      `mail sink not started: ${url.host} is in use (${(error as Error).message}); alert e-mails go to whatever listens there`,
    );
    return null;
  }
  return { url: `smtp://${url.host}`, dir, close: () => new Promise<void>((done) => server.close(() => done())) };
}
