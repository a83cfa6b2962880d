import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/**
 * Just enough of a TURN client (RFC 5766 over UDP, long-term credentials) to ask a TURN server for an allocation and
 * for permissions to peers. A permission is only a request to the server: no packet goes to the peer.
 */
const MAGIC = 0x2112a442;
const METHOD = { allocate: 0x0003, refresh: 0x0004, createPermission: 0x0008 } as const;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  lifetime: 0x000d,
  realm: 0x0014,
  nonce: 0x0015,
  xorPeerAddress: 0x0012,
  requestedTransport: 0x0019,
} as const;

export interface TurnAnswer {
  ok: boolean;
  /** The error code of a refusal (401, 403, 437, ...). */
  code?: number;
}

export class TurnClient {
  private readonly socket: Socket = createSocket('udp4');
  private realm = '';
  private nonce = '';
  private key = Buffer.alloc(0);
  private allocated = false;
  private readonly bound: Promise<void>;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly username: string,
    private readonly password: string,
    /** A local UDP port to send from (otherwise the system picks one). */
    localPort?: number,
  ) {
    this.bound =
      localPort === undefined ? Promise.resolve() : new Promise((resolve) => this.socket.bind(localPort, resolve));
  }

  /** Allocate, answering the server's 401 challenge with the credentials. */
  async allocate(): Promise<TurnAnswer> {
    const transport = Buffer.from([17, 0, 0, 0]); // UDP
    const first = await this.send(METHOD.allocate, [[ATTR.requestedTransport, transport]], false);
    if (first.ok || first.code !== 401) return first;
    this.realm = first.attrs.get(ATTR.realm)?.toString() ?? '';
    this.nonce = first.attrs.get(ATTR.nonce)?.toString() ?? '';
    this.key = createHash('md5').update(`${this.username}:${this.realm}:${this.password}`).digest();
    const answer = await this.send(METHOD.allocate, [[ATTR.requestedTransport, transport]], true);
    this.allocated = answer.ok;
    return answer;
  }

  /** Asks for a permission to send to `ip` (IPv4) through the allocation. */
  createPermission(ip: string): Promise<TurnAnswer> {
    const value = Buffer.alloc(8);
    value.writeUInt8(0, 0);
    value.writeUInt8(0x01, 1); // IPv4
    value.writeUInt16BE(0 ^ (MAGIC >>> 16), 2);
    const address = ip.split('.').reduce((n, part) => (n << 8) | Number(part), 0) >>> 0;
    value.writeUInt32BE((address ^ MAGIC) >>> 0, 4);
    return this.send(METHOD.createPermission, [[ATTR.xorPeerAddress, value]], true);
  }

  /** Refreshes the allocation, as a browser does every few minutes to keep its relay. */
  refresh(lifetimeSeconds = 600): Promise<TurnAnswer> {
    const lifetime = Buffer.alloc(4);
    lifetime.writeUInt32BE(lifetimeSeconds);
    return this.send(METHOD.refresh, [[ATTR.lifetime, lifetime]], true);
  }

  /**
   * Gives the allocation back (a Refresh with lifetime 0), then closes the socket. Only closing would leave it on the
   * server for its lifetime: the next client on the same local port then gets 437 Allocation Mismatch, and a user's
   * allocations count against its quota.
   */
  async close(): Promise<void> {
    if (this.allocated) await this.refresh(0).catch(() => undefined);
    this.allocated = false;
    this.socket.close();
  }

  private async send(
    method: number,
    attributes: [number, Buffer][],
    signed: boolean,
  ): Promise<TurnAnswer & { attrs: Map<number, Buffer> }> {
    await this.bound;
    const transaction = randomBytes(12);
    const all: [number, Buffer][] = signed
      ? [
          [ATTR.username, Buffer.from(this.username)],
          [ATTR.realm, Buffer.from(this.realm)],
          [ATTR.nonce, Buffer.from(this.nonce)],
          ...attributes,
        ]
      : attributes;
    let body = Buffer.concat(all.map(([type, value]) => attribute(type, value)));
    if (signed) {
      // MESSAGE-INTEGRITY covers the header with the length as if it were already there (RFC 5389 15.4).
      const header = stunHeader(method, body.length + 24, transaction);
      const mac = createHmac('sha1', this.key)
        .update(Buffer.concat([header, body]))
        .digest();
      body = Buffer.concat([body, attribute(ATTR.messageIntegrity, mac)]);
    }
    const message = Buffer.concat([stunHeader(method, body.length, transaction), body]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.socket.off('message', onMessage);
        reject(new Error('no answer from the TURN server'));
      }, 3_000);
      const onMessage = (packet: Buffer) => {
        if (packet.length < 20 || !packet.subarray(8, 20).equals(transaction)) return;
        clearTimeout(timer);
        this.socket.off('message', onMessage);
        const type = packet.readUInt16BE(0);
        const attrs = parseAttributes(packet.subarray(20, 20 + packet.readUInt16BE(2)));
        const error = attrs.get(ATTR.errorCode);
        const ok = (type & 0x0110) === 0x0100;
        resolve({ ok, code: error ? error.readUInt8(2) * 100 + error.readUInt8(3) : undefined, attrs });
      };
      this.socket.on('message', onMessage);
      this.socket.send(message, this.port, this.host);
    });
  }
}

/** coturn's REST credentials (--use-auth-secret): what the backend hands each side of a call. */
export function turnCredentials(secret: string, userId: string, ttlSeconds: number) {
  const username = `${Math.floor(Date.now() / 1000) + ttlSeconds}:${userId}`;
  return { username, password: createHmac('sha1', secret).update(username).digest('base64') };
}

function stunHeader(method: number, length: number, transaction: Buffer): Buffer {
  const header = Buffer.alloc(20);
  header.writeUInt16BE(method, 0);
  header.writeUInt16BE(length, 2);
  header.writeUInt32BE(MAGIC, 4);
  transaction.copy(header, 8);
  return header;
}

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function parseAttributes(body: Buffer): Map<number, Buffer> {
  const attrs = new Map<number, Buffer>();
  for (let at = 0; at + 4 <= body.length;) {
    const type = body.readUInt16BE(at);
    const length = body.readUInt16BE(at + 2);
    attrs.set(type, body.subarray(at + 4, at + 4 + length));
    at += 4 + Math.ceil(length / 4) * 4;
  }
  return attrs;
}

/** A UDP port nothing listens on now. */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}
