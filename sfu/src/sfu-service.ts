import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthAnswer } from '@serendip/proto';
import type { Logger } from 'pino';

export interface SfuOptions {
  /** Port of the health endpoint the orchestrator (docker-compose, k8s) probes; 0 picks a free one. */
  healthPort: number;
  host: string;
  logger: Logger;
}

export interface RunningSfu {
  /** The port the health endpoint listens on. */
  port: number;
  stop(): Promise<void>;
}

/**
 * The media service. Its mediasoup workers and NATS request/reply come with the SFU issue; today it only
 * runs, reports its health and stops cleanly, so the deployment around it can be built and checked.
 */
export async function startSfu({ healthPort, host, logger }: SfuOptions): Promise<RunningSfu> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      const answer: HealthAnswer & { workers: number } = {
        message: 'Serendip SFU is up (media relay not enabled yet)',
        workers: 0,
      };
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify(answer));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 404, message: 'Not Found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(healthPort, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'sfu started; media relay is not enabled yet');
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
