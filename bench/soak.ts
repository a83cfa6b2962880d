/**
 * `npm run soak -- --minutes N [--bots B] [--json]`: the app as `npm start` runs it (`node backend/dist/main.js`, on a
 * database of its own, NATS when NATS_URL is set), used for N minutes by B bots that each, over and over, sign in,
 * open the video socket, search, chat a few lines with whoever they are paired with, then leave, skip, report (now and
 * then) or log out. Every few seconds it samples the backend process from outside: resident memory and open file
 * descriptors (/proc), its Postgres connections (pg_stat_activity), and the round trip of GET /api/health, in which
 * event-loop delay shows (the process has no delay gauge of its own). The goal: under a steady load (the last quarter's pairings per sample at least half the second quarter's),
 * after a warm-up, all four stay flat:
 * the last quarter's median within 20 % (memory: and 40 MB), 10 descriptors, 2 connections and 2x (+20 ms) of the
 * second quarter's. The summary is printed (last line one JSON object) and kept in bench/results/.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { REPORT_REASONS } from '@serendip/proto';
import pg from 'pg';
import { pino } from 'pino';
import { io, type Socket } from 'socket.io-client';
import { benchDatabase } from './bench-database.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const MINUTES = option('--minutes', 2);
const BOTS = Math.round(option('--bots', 24));
const SAMPLE_MS = 5_000;
const PASSWORD = 'violet-harbour-42';
const root = fileURLToPath(new URL('../../', import.meta.url));
const logger = pino({ level: 'error' });

interface Sample {
  atS: number;
  rssMb: number;
  fds: number;
  pgConnections: number;
  healthMs: number;
  /** Pairings since the last sample: the load is held for the whole run, or the run proves nothing. */
  paired: number;
}

const tally = new Map<string, number>();
const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const between = (min: number, max: number) => min + Math.random() * (max - min);

/** A browser in miniature: its own client address (behind the trusted loopback proxy) and its cookies. */
class Client {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    readonly ip: string,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(method: string, url: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${this.base}/api${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        Cookie: this.cookieHeader(),
        'X-Forwarded-For': this.ip,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0]!.split('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }
}

type VideoSocket = Socket<Record<string, (...args: never[]) => void>, Record<string, (...args: never[]) => void>>;

class Bot {
  readonly client: Client;
  readonly email = `soak-${randomUUID().slice(0, 12)}@example.com`;
  private lastReport = 0;

  constructor(
    private readonly base: string,
    index: number,
  ) {
    this.client = new Client(base, `2001:db8:50a4::${(index + 1).toString(16)}`);
  }

  async signUp(firstName: string, gender: 'female' | 'male') {
    const up = await this.client.call('POST', '/auth/signup', { emailAddress: this.email, password: PASSWORD });
    if (up.status !== 201) throw new Error(`sign-up answered ${up.status}`);
    const done = await this.client.call('POST', '/auth/signup/complete', {
      firstName,
      lastName: 'Soak',
      username: `soak${randomUUID().slice(0, 8)}`,
      gender,
      birthDate: '1992-03-14',
    });
    if (done.status !== 200) throw new Error(`sign-up completion answered ${done.status}`);
    for (let tries = 0; tries < 100; tries++) {
      const mails = (await (await fetch(`${this.base}/api/dev/outbox`)).json()) as { to: string; text: string }[];
      const token = /verify-email\?token=([\w-]+)/.exec(mails.find((m) => m.to === this.email)?.text ?? '')?.[1];
      if (token) {
        const verified = await this.client.call('POST', '/auth/verify-email', { token });
        if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}`);
        return;
      }
      await sleep(100);
    }
    throw new Error('no confirmation mail');
  }

  private openSocket(): Promise<VideoSocket> {
    const socket: VideoSocket = io(`${this.base}/video`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { Cookie: this.client.cookieHeader() },
    });
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (error) => (socket.close(), reject(error)));
    });
  }

  /** Sessions of use until the deadline: sign in, calls, then (now and then) log out and start over. */
  async run(deadline: number) {
    let signedIn = true;
    while (Date.now() < deadline) {
      try {
        if (!signedIn) {
          const login = await this.client.call('POST', '/auth/login', { emailAddress: this.email, password: PASSWORD });
          count(`sign-in ${login.status}`);
          if (login.status !== 200) {
            await sleep(5_000);
            continue;
          }
          signedIn = true;
        }
        const socket = await this.openSocket();
        try {
          signedIn = await this.calls(socket, deadline);
        } finally {
          socket.close();
        }
        if (!signedIn) count(`log-out ${(await this.client.call('POST', '/auth/logout')).status}`);
      } catch (error) {
        count(`error: ${(error as Error).message.slice(0, 80)}`);
        await sleep(1_000);
      }
    }
  }

  /** Calls on one socket; false once the bot has decided to log out. */
  private async calls(socket: VideoSocket, deadline: number): Promise<boolean> {
    const emit = (event: string, body: unknown) =>
      (socket.timeout(10_000) as unknown as { emitWithAck(e: string, b: unknown): Promise<unknown> }).emitWithAck(
        event,
        body,
      );
    while (Date.now() < deadline) {
      const found = new Promise<{ matchId: string; partnerId: string } | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), 15_000);
        socket.once(
          'matchFound' as never,
          ((m: { matchId: string; partnerId: string }) => {
            clearTimeout(timer);
            resolve(m);
          }) as never,
        );
      });
      await emit('startMatching', {
        filters: { gender: null, country: null, ageRange: [18, 110] },
        deviceType: 'desktop',
      });
      const match = await found;
      if (!match) {
        count('no partner within 15 s');
        await emit('leaveVideoRoom', { next: false });
        continue;
      }
      count('paired');
      const partnerLeft = new Promise<void>((resolve) => socket.once('partnerDisconnected' as never, resolve as never));
      for (let i = 0; i < 1 + Math.floor(Math.random() * 3); i++) {
        const answer = (await emit('sendChatMessage', { target: match.partnerId, message: `hello ${i}` })) as {
          error?: unknown;
        };
        count(answer?.error ? 'chat refused (partner gone)' : 'chat line');
        await sleep(between(200, 600));
      }
      const ended = await Promise.race([partnerLeft.then(() => true), sleep(between(1_000, 3_000)).then(() => false)]);
      if (ended) {
        count('left by the partner');
        continue;
      }
      const roll = Math.random();
      // Skips (a 10-minute cooldown) and reports (apart for good) are rare: enough of them would leave the bots no one
      // to be paired with, and the load would fade out of the run.
      if (roll < 0.01 && Date.now() - this.lastReport > 10 * 60_000) {
        this.lastReport = Date.now();
        const report = await this.client.call('POST', '/report/submit-report', {
          matchId: match.matchId,
          reason: Object.keys(REPORT_REASONS)[0],
          severity: 'low',
          details: 'soak test',
        });
        count(`report ${report.status}`);
        await emit('leaveVideoRoom', { next: true });
      } else if (roll < 0.04) {
        count('skip');
        await emit('leaveVideoRoom', { next: true });
      } else if (roll < 0.12) {
        count('leave and log out');
        await emit('leaveVideoRoom', { next: false });
        return false;
      } else {
        count('leave');
        await emit('leaveVideoRoom', { next: false });
      }
    }
    return true;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

let pairedAtLastSample = 0;

async function sample(child: ChildProcess, base: string, db: pg.Client, startedAt: number): Promise<Sample> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fds = (await readdir(`/proc/${child.pid}/fd`)).length;
  const { rows } = await db.query<{ n: string }>(
    'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  const pairedSoFar = tally.get('paired') ?? 0;
  const paired = pairedSoFar - pairedAtLastSample;
  pairedAtLastSample = pairedSoFar;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await (await fetch(`${base}/api/health`)).text();
    times.push(performance.now() - t);
  }
  return {
    atS: Math.round((Date.now() - startedAt) / 1000),
    rssMb: Math.round(rssKb / 102.4) / 10,
    fds,
    pgConnections: Number(rows[0]!.n),
    healthMs: Math.round(Math.max(...times) * 10) / 10,
    paired,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main() {
  const database = await benchDatabase('soak', 55_441, logger);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-soak-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(root, 'backend/dist/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}),
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      PERSONAL_DATA_KEY: randomBytes(32).toString('base64'),
      MEDIA_MODE: 'p2p',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4_000)));
  const db = new pg.Client({ connectionString: database.url });
  try {
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`the backend ended:\n${stderr}`);
      if ((await fetch(`${base}/api/health`).catch(() => undefined))?.ok) break;
      if (tries > 450) throw new Error('the backend did not answer within 90 s');
      await sleep(200);
    }
    await db.connect();
    const bots = Array.from({ length: BOTS }, (_, i) => new Bot(base, i));
    for (let i = 0; i < bots.length; i += 4) {
      await Promise.all(
        bots.slice(i, i + 4).map((bot, j) => bot.signUp(`Bot${i + j}`, (i + j) % 2 ? 'male' : 'female')),
      );
    }
    const startedAt = Date.now();
    const deadline = startedAt + MINUTES * 60_000;
    const samples: Sample[] = [await sample(child, base, db, startedAt)];
    const sampler = setInterval(
      () =>
        void sample(child, base, db, startedAt).then(
          (s) => {
            samples.push(s);
            if (!argv.includes('--json')) console.log(JSON.stringify({ ...s, actions: Object.fromEntries(tally) }));
          },
          () => count('sample failed'),
        ),
      SAMPLE_MS,
    );
    await Promise.all(bots.map((bot) => bot.run(deadline)));
    clearInterval(sampler);
    // Once everyone has gone quiet: what the process holds with no one on it.
    await sleep(SAMPLE_MS);
    const idle = await sample(child, base, db, startedAt);

    const q = Math.max(1, Math.floor(samples.length / 4));
    const early = samples.slice(q, 2 * q);
    const late = samples.slice(-q);
    const figure = (key: keyof Omit<Sample, 'atS'>) => ({
      early: median(early.map((s) => s[key])),
      late: median(late.map((s) => s[key])),
    });
    const flat = {
      rssMb: figure('rssMb'),
      fds: figure('fds'),
      pgConnections: figure('pgConnections'),
      healthMs: figure('healthMs'),
    };
    const pairing = figure('paired');
    // The bots still found partners at the end as at the start: the figures were taken under the same load.
    const steadyLoad = pairing.late >= pairing.early * 0.5;
    const metGoal =
      steadyLoad &&
      flat.rssMb.late <= Math.max(flat.rssMb.early * 1.2, flat.rssMb.early + 40) &&
      flat.fds.late <= flat.fds.early + 10 &&
      flat.pgConnections.late <= flat.pgConnections.early + 2 &&
      flat.healthMs.late <= flat.healthMs.early * 2 + 20;
    const summary = {
      minutes: MINUTES,
      bots: BOTS,
      nats: Boolean(process.env.NATS_URL),
      actions: Object.fromEntries([...tally].sort(([a], [b]) => a.localeCompare(b))),
      pairedPerSample: pairing,
      steadyLoad,
      flat,
      idle,
      samples,
      backendAlive: child.exitCode === null,
      metGoal: metGoal && child.exitCode === null,
    };
    const dir = path.join(root, 'bench/results');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
    if (!argv.includes('--json')) console.log(`kept in ${path.relative(root, file)}`);
    console.log(JSON.stringify({ ...summary, samples: samples.length }));
  } finally {
    child.kill('SIGTERM');
    await db.end().catch(() => undefined);
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
