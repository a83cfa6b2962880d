// Addresses from the documentation networks handed out in turn, so clients of one test file never share one by chance
// (a shared one would share its per-address limits): the three IPv4 ones (RFC 5737, 762 addresses), then IPv6's
// (RFC 3849) for as many more as a file needs.
const TEST_NETS = ['192.0.2', '198.51.100', '203.0.113'];
let handedOut = 0;
function clientAddress(): string {
  const n = handedOut++;
  if (n >= 762) return `2001:db8::${(n - 761).toString(16)}`;
  return `${TEST_NETS[Math.floor(n / 254)]}.${(n % 254) + 1}`;
}

/** A browser in miniature: keeps the cookies the server sets, sends them back. */
export class ApiClient {
  cookies = new Map<string, string>();
  /** Each client is another person behind the trusted proxy (TRUST_PROXY=loopback): its own client address. */
  readonly ip = clientAddress();
  constructor(private readonly base: string) {}

  /** The cookies as a browser sends them (for sockets and requests made without `call`). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${this.base}/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        Cookie: this.cookieHeader(),
        'X-Forwarded-For': this.ip,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : undefined,
      setCookies: res.headers.getSetCookie(),
      headers: res.headers,
    };
  }
}
