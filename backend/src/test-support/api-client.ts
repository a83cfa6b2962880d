/** A browser in miniature: keeps the cookies the server sets, sends them back. */
export class ApiClient {
  cookies = new Map<string, string>();
  /** Each client is another person behind the trusted proxy (TRUST_PROXY=loopback): its own client address. */
  readonly ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
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
