import { randomBytes } from 'node:crypto';
import { type BackendProcess, buildBackend, startBackendProcess, waitForOk } from './backend-process.js';
import { freePort } from './global-postgres.js';
import { TestNatsServer } from './nats-server.js';
import { type SmtpSink, startSmtpSink } from './smtp-sink.js';
import { sharedTempDir } from './temp-dir.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface Node {
  process: BackendProcess;
  base: string;
  /** Starts this node again (after a kill) on the same port and settings, and waits until it answers. */
  restart(): Promise<void>;
}

export interface TwoNodes {
  nodes: [Node, Node];
  nats: TestNatsServer;
  sink: SmtpSink;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * Two backend processes on one NATS of their own, one Postgres database and one SMTP sink (DESIGN.md "Processes and
 * roles"), the first started (and so the matchmaker's leader) before the second. `firstNodeEnv` is added to the first
 * node's settings only (say, ADMIN_EMAIL, which a deployment sets on one node), `bothNodesEnv` to both (say,
 * MEDIASOUP_WORKER_BIN, for the SFU each node runs).
 */
export async function startTwoNodes(
  firstNodeEnv: Record<string, string> = {},
  bothNodesEnv: Record<string, string> = {},
): Promise<TwoNodes> {
  buildBackend();
  const database = await createTestDatabase();
  const nats = new TestNatsServer(await freePort(), await sharedTempDir('serendip-nats-'));
  await nats.start();
  const sink = await startSmtpSink();
  const shared = {
    SMTP_URL: sink.url,
    DATABASE_URL: database.url,
    NATS_URL: nats.url,
    // One key for both: a session signed in on one node is valid on the other.
    PERSONAL_DATA_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    ...bothNodesEnv,
  };
  const nodes: Node[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...shared,
      ...(i === 0 ? firstNodeEnv : {}),
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: await sharedTempDir('serendip-node-'),
    };
    const node: Node = {
      process: startBackendProcess(env),
      base,
      async restart() {
        node.process = startBackendProcess(env);
        await answering(node);
      },
    };
    nodes.push(node);
    await answering(node);
  }
  return {
    nodes: nodes as [Node, Node],
    nats,
    sink,
    database,
    async stop() {
      for (const node of nodes) node.process.child.kill('SIGTERM');
      await Promise.all(nodes.map((n) => n.process.exited));
      await nats.stop();
      await sink.stop();
      await database.drop();
    },
  };
}

async function answering(node: Node) {
  await waitForOk(`${node.base}/api/health`, 90_000, node.process.exited).catch((error: Error) => {
    throw new Error(`${error.message}\n${node.process.stderr()}${node.process.stdout()}`);
  });
}
