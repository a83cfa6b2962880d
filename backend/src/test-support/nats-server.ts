import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const NATS_SERVER_BIN = '/usr/sbin/nats-server';
const START_TIMEOUT_MS = 10_000;

/**
 * A nats-server of a test's own (never the machine's shared one on 4222): JetStream on, its store in `storeDir`,
 * so a restart on the same port and directory finds its streams and consumers again.
 */
export class TestNatsServer {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private output = '';

  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!existsSync(NATS_SERVER_BIN)) {
      throw new Error(`${NATS_SERVER_BIN} is missing: install it with \`apt-get install -y nats-server\``);
    }
    const args = ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir];
    const child = spawn(NATS_SERVER_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // A backstop: a test run that dies must not leave its server behind.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        process.off('exit', killOnExit);
        resolve();
      }),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`nats-server on port ${this.port} ${why}:\n${this.output}`));
      };
      const onOutput = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onOutput);
      child.stderr!.on('data', onOutput);
      child.once('exit', (code, signal) => fail(`exited (${code ?? signal})`));
      child.once('error', (error) => fail(`could not run: ${error.message}`));
    });
  }

  /** Ends the server (SIGKILL: a crash, nothing flushed) and waits until it is gone. */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    await this.exited;
    this.output = '';
  }
}
