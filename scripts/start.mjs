// `npm start`: install what is missing, build what is stale, run the whole app on embedded defaults.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { checkNode, ensureBuilt, ensureInstalled, root, say } from './setup.mjs';

checkNode();
ensureInstalled();
ensureBuilt();
say(`starting on http://localhost:${process.env.PORT ?? 3000} (Ctrl+C stops)`);

const backend = spawn(process.execPath, [path.join(root, 'backend/dist/main.js')], { cwd: root, stdio: 'inherit' });
// The backend stops itself gracefully on these; we only pass them on and wait.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => backend.kill(signal));
backend.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
