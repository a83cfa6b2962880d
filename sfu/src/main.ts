import { connect } from 'nats';
import { pino } from 'pino';
import { loadSfuConfig, type SfuConfig, SfuConfigError } from './config.js';
import { natsRpcPort } from './nats-rpc.js';
import { startSfu } from './sfu-service.js';

// The standalone SFU node.

function readConfig(): SfuConfig {
  try {
    return loadSfuConfig();
  } catch (error) {
    if (!(error instanceof SfuConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

const config = readConfig();
const { natsUrl, listenIp, announcedIp } = config;

const logger = pino({ level: config.logLevel, base: { service: 'sfu', pid: process.pid } });
if (!announcedIp && (listenIp === '0.0.0.0' || listenIp === '::')) {
  // Not fatal: the node still answers health and snapshots, but browsers cannot reach an unspecified address.
  logger.warn(`SFU_ANNOUNCED_IP is not set: ICE candidates will carry ${listenIp}, which browsers cannot reach`);
}

async function main() {
  const nc = await connect({ ...config.nats, name: 'serendip-sfu' }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot reach NATS at ${withoutCredentials(natsUrl)}: ${reason}`);
  });
  const sfu = await startSfu({
    healthPort: config.healthPort,
    host: config.host,
    logger,
    rpc: natsRpcPort(nc),
    nodeId: config.nodeId,
    workers: config.workers,
    listenIp,
    announcedIp,
    rtcMinPort: config.rtcMinPort,
    rtcMaxPort: config.rtcMaxPort,
    maxRooms: config.maxRooms,
  });
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'sfu shutting down');
    void sfu
      .stop()
      .then(() => nc.drain())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The URL as it may be shown: a user and password in it are not. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

main().catch((error: unknown) => {
  process.stderr.write(`SFU failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
