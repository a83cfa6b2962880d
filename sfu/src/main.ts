import { pino } from 'pino';
import { startSfu } from './sfu-service.js';

const rawPort = process.env.SFU_HEALTH_PORT ?? '3100';
if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65535) {
  process.stderr.write(
    `Configuration error: SFU_HEALTH_PORT must be a whole number from 0 to 65535 (got "${rawPort}")\n`,
  );
  process.exit(1);
}
const level = process.env.LOG_LEVEL ?? 'info';
if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) {
  process.stderr.write(
    `Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${level}")\n`,
  );
  process.exit(1);
}
const logger = pino({ level, base: { service: 'sfu', pid: process.pid } });

startSfu({ healthPort: Number(rawPort), host: process.env.SFU_HOST ?? '0.0.0.0', logger }).then(
  (sfu) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'sfu shutting down');
      void sfu.stop().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (error: unknown) => {
    process.stderr.write(`SFU failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
