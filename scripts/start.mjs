// `npm start`: install what is missing, build what is stale, run the whole app on embedded defaults.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { prepareStart, root, say } from './setup.mjs';

await prepareStart();
say('starting (Ctrl+C stops)');

// The backend gets its own process group: a terminal's Ctrl+C reaches only us, and we pass it on once, so the
// backend shuts down in order (HTTP and sockets first, the embedded Postgres last) instead of all at once.
const backend = spawn(process.execPath, [path.join(root, 'backend/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
let forwarded = false;
const stop = (signal) => {
  if (forwarded) return;
  forwarded = true;
  backend.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGTERM'));
// npm runs us through `sh`, which does not pass signals on: if whoever started us is gone, stop too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop('SIGTERM'), 1000).unref();
backend.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
