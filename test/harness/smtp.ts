import { SMTPServer } from 'smtp-server';
import { waitUntil } from '../../stack/proc.ts';

/** One message as the SMTP server received it, with its headers and text parts decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  messages: ReceivedMail[];
  /** Starts listening (again) on `port`. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Waits until at least `count` messages arrived (generous deadline; no fixed sleeps). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1:`port`, keeping every message it accepts. Not started until
 * `start()`, so a test can let the first sends fail on a refused connection.
 */
/** `refuseRecipients`: answer every RCPT TO with 550 (no such mailbox), a reply no retry changes. */
export function testSmtpServer(port: number, options: { refuseRecipients?: boolean } = {}): TestSmtpServer {
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(_address, _session, callback) {
        if (!options.refuseRecipients) return callback();
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          messages.push({
            ...parseMessage(raw),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        });
      },
    });
  return {
    port,
    messages,
    async start() {
      server = create();
      await new Promise<void>((ready, fail) => {
        server!.once('error', fail);
        server!.listen(port, '127.0.0.1', () => ready());
      });
    },
    async stop() {
      const running = server;
      server = null;
      if (running) await new Promise<void>((done) => running.close(() => done()));
    },
    async waitForMessages(count, timeoutMs = 60_000) {
      await waitUntil(
        `${count} e-mail(s) (have ${messages.length})`,
        async () => messages.length >= count,
        timeoutMs,
        100,
      );
      return messages;
    },
  };
}

// A small MIME reader, enough for what nodemailer writes: headers with RFC 2047 words, multipart/alternative,
// quoted-printable, base64 or 7bit parts in UTF-8.

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeWords(value: string): string {
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    out += Buffer.from(bytes.splice(0)).toString('utf8');
  };
  for (const part of value.split(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)/)) {
    const word = /^=\?[^?]+\?([QqBb])\?([^?]*)\?=$/.exec(part);
    if (word) {
      const data = word[2]!;
      if (word[1]!.toUpperCase() === 'B') bytes.push(...Buffer.from(data, 'base64'));
      else bytes.push(...quotedPrintable(data.replace(/_/g, ' ')));
    } else if (!/^\s*$/.test(part) || bytes.length === 0) {
      flush();
      out += part;
    }
  }
  flush();
  return out;
}

function quotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const body = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(body.slice(i + 1, i + 3))) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(body[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'quoted-printable') return quotedPrintable(body).toString('utf8');
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

function parseMessage(raw: string): Omit<ReceivedMail, 'from' | 'to'> {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const parts: Array<{ type: string; content: string }> = [];
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  if (boundary) {
    for (const section of body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break;
      const end = section.indexOf('\r\n\r\n');
      const partHeaders = parseHeaders(section.slice(0, end).replace(/^\r\n/, ''));
      parts.push({
        type: partHeaders.get('content-type') ?? '',
        content: decodeBody(section.slice(end + 4).replace(/\r\n$/, ''), partHeaders.get('content-transfer-encoding')),
      });
    }
  } else {
    parts.push({
      type: headers.get('content-type') ?? 'text/plain',
      content: decodeBody(body, headers.get('content-transfer-encoding')),
    });
  }
  const ofType = (type: string) => parts.find((p) => p.type.startsWith(type))?.content.replace(/\r\n/g, '\n') ?? '';
  return {
    subject: decodeWords(headers.get('subject') ?? ''),
    text: ofType('text/plain'),
    html: ofType('text/html'),
    raw,
  };
}
