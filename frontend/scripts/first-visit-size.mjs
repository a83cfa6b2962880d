// After `vite build`: how much JavaScript (gzip) a first visit to /auth/login downloads, from the build manifest:
// the entry chunk and its static imports, plus the login page's lazy chunk and its own. Budget: 170 KB.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const ROUTE = { path: '/auth/login', module: 'src/pages/auth/LoginPage.tsx' };

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entry || !manifest[ROUTE.module]) {
  console.error(`first-visit-size: the manifest has no ${entry ? ROUTE.module : 'entry'}`);
  process.exit(1);
}

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  (chunk.imports ?? []).forEach(visit);
};
visit(entry);
visit(ROUTE.module);

const gzipBytes = [...files]
  .filter((file) => file.endsWith('.js'))
  .reduce((sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length, 0);
const kb = gzipBytes / 1024;
console.log(
  `first visit to ${ROUTE.path}: ${kb.toFixed(1)} KB of JavaScript (gzip) in ${files.size} files; budget ${BUDGET_KB} KB`,
);
if (kb > BUDGET_KB) {
  console.error(`first-visit-size: over the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
