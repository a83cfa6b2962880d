import { isIP } from 'node:net';
import { connect } from 'nats';
import { pino } from 'pino';
import { natsRpcPort } from './nats-rpc.js';
import { startSfu } from './sfu-service.js';

// The standalone SFU node. MEDIASOUP_WORKER_BIN (read by mediasoup itself) names the worker binary.

function configError(message: string): never {
  process.stderr.write(`Configuration error: ${message}\n`);
  process.exit(1);
}

function wholeNumber(name: string, fallback: string, min: number, max: number): number {
  const raw = process.env[name] ?? fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    configError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function ipAddress(name: string, fallback?: string): string | undefined {
  const raw = process.env[name] ?? fallback;
  if (raw !== undefined && isIP(raw) === 0) configError(`${name} must be an IPv4 or IPv6 address (got "${raw}")`);
  return raw;
}

const healthPort = wholeNumber('SFU_HEALTH_PORT', '3100', 0, 65535);
const level = process.env.LOG_LEVEL ?? 'info';
if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) {
  configError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${level}")`);
}
const natsUrl = process.env.NATS_URL;
if (!natsUrl)
  configError('NATS_URL is required: the backend reaches a standalone SFU over NATS (e.g. nats://nats:4222)');
const rtcMinPort = wholeNumber('SFU_RTC_MIN_PORT', '40000', 1024, 65535);
const rtcMaxPort = wholeNumber('SFU_RTC_MAX_PORT', '49999', 1024, 65535);
if (rtcMinPort > rtcMaxPort) {
  configError(`SFU_RTC_MIN_PORT (${rtcMinPort}) must not be above SFU_RTC_MAX_PORT (${rtcMaxPort})`);
}
const workers = process.env.SFU_WORKERS === undefined ? undefined : wholeNumber('SFU_WORKERS', '', 1, 256);
const listenIp = ipAddress('SFU_LISTEN_IP', '0.0.0.0');
const announcedIp = ipAddress('SFU_ANNOUNCED_IP');
const nodeId = process.env.SFU_NODE_ID || undefined;
if (nodeId !== undefined && !/^[\w-]+$/.test(nodeId)) {
  configError(`SFU_NODE_ID may hold only letters, digits, _ and - (it is part of a NATS subject; got "${nodeId}")`);
}

const logger = pino({ level, base: { service: 'sfu', pid: process.pid } });
if (!announcedIp && (listenIp === '0.0.0.0' || listenIp === '::')) {
  // Not fatal: the node still answers health and snapshots, but browsers cannot reach an unspecified address.
  logger.warn(`SFU_ANNOUNCED_IP is not set: ICE candidates will carry ${listenIp}, which browsers cannot reach`);
}

async function main() {
  const nc = await connect({ servers: natsUrl, name: 'serendip-sfu' }).catch((error: unknown) => {
    throw new Error(`cannot reach NATS at ${natsUrl}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const sfu = await startSfu({
    healthPort,
    host: process.env.SFU_HOST ?? '0.0.0.0',
    logger,
    rpc: natsRpcPort(nc),
    nodeId,
    workers,
    listenIp,
    announcedIp,
    rtcMinPort,
    rtcMaxPort,
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

main().catch((error: unknown) => {
  process.stderr.write(`SFU failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
