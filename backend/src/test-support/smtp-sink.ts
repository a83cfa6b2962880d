import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO): where the mail really went, whatever the headers say. */
  to: string[];
  subject: string;
  /** The text/plain part, transfer encoding undone (quoted-printable soft breaks joined). */
  text: string;
  html?: string;
  /** The message as received. */
  raw: string;
}

export interface SmtpSink {
  /** e.g. smtp://127.0.0.1:41234 (no auth, no TLS) */
  url: string;
  messages: ReceivedMail[];
  /** The first mail, received or yet to come, that `predicate` accepts. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 and a free port that keeps every mail it receives, for tests. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<(mail: ReceivedMail) => void>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { mailFrom, rcptTo } = session.envelope;
        const mail = { from: mailFrom ? mailFrom.address : '', to: rcptTo.map((r) => r.address), raw, ...parse(raw) };
        messages.push(mail);
        for (const waiter of waiters) waiter(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(predicate, timeoutMs = 20_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = (mail: ReceivedMail) => {
          if (!predicate(mail)) return;
          done();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        waiters.add(waiter);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function parse(raw: string): { subject: string; text: string; html?: string } {
  const top = splitPart(raw);
  const leaves = flatten(top);
  const text = leaves.find((p) => contentType(p).startsWith('text/plain'));
  const html = leaves.find((p) => contentType(p).startsWith('text/html'));
  return {
    subject: decodeWords(top.headers.get('subject') ?? ''),
    text: text ? decodeBody(text) : '',
    ...(html ? { html: decodeBody(html) } : {}),
  };
}

function splitPart(source: string): Part {
  const normalized = source.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end < 0 ? normalized : normalized.slice(0, end);
  const body = end < 0 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function contentType(part: Part): string {
  return (part.headers.get('content-type') ?? 'text/plain').toLowerCase();
}

function flatten(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => flatten(splitPart(section.replace(/^\n/, '').replace(/\n$/, ''))));
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body);
  return part.body;
}

function decodeQuotedPrintable(body: string): string {
  // `=` at a line end is a soft break nodemailer adds to keep lines short (it splits long URLs and codes).
  const joined = body.replace(/[ \t]+$/gm, '').replace(/=\n/g, '');
  return hexBytes(joined, /=([0-9A-Fa-f]{2})/g);
}

function hexBytes(text: string, pattern: RegExp): string {
  const bytes: number[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    bytes.push(...Buffer.from(text.slice(last, match.index), 'utf8'), parseInt(match[1]!, 16));
    last = match.index + match[0].length;
  }
  bytes.push(...Buffer.from(text.slice(last), 'utf8'));
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), which nodemailer uses for non-ASCII or long subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : hexBytes(data.replace(/_/g, ' '), /=([0-9A-Fa-f]{2})/g),
    );
}
