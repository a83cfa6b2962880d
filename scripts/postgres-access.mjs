// The embedded Postgres's folder check, in plain Node so `npm start` can run it in its first seconds: before the
// install, the build and the media worker's build (minutes), not after them. The backend repeats it when it starts
// the database (backend/src/platform/database/embedded-postgres.ts) and lets the postgres user through the project's
// own folders; here we only stop early for a folder outside the project, which is not ours to change.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The first folder outside `projectRoot`, above any of `targets`, that others may not pass through (no o+x), or
 * undefined. A target that does not exist yet is checked from its nearest existing parent (we create the rest).
 */
export function folderPostgresCannotPass(targets, projectRoot) {
  const rootDir = path.resolve(projectRoot);
  const inside = (dir) => dir === rootDir || dir.startsWith(rootDir + path.sep);
  for (const target of targets) {
    let dir = path.resolve(target);
    while (!existsSync(dir) && dir !== path.dirname(dir)) dir = path.dirname(dir);
    for (; ; dir = path.dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0 && !inside(dir)) return { dir, mode: mode & 0o777 };
      if (dir === path.dirname(dir)) break;
    }
  }
  return undefined;
}

/**
 * What stops `npm start` before any slow step, or undefined: only as root (Postgres then runs as the `postgres`
 * user) and only for the embedded database (no DATABASE_URL). Its data lives in DATA_DIR (default .data, from the
 * project root), its binaries in the project's node_modules.
 */
export function embeddedPostgresProblem({ env = process.env, uid = process.getuid?.(), root }) {
  if (env.DATABASE_URL || uid !== 0) return undefined;
  const dataDir = path.resolve(root, env.DATA_DIR?.trim() || '.data');
  const blocked = folderPostgresCannotPass([dataDir, path.join(root, 'node_modules')], root);
  if (!blocked) return undefined;
  return (
    `the embedded Postgres runs as the \`postgres\` user, who may not pass through ${blocked.dir} ` +
    `(mode ${blocked.mode.toString(8)}); allow it with \`chmod o+x ${blocked.dir}\`, move the project, or set DATABASE_URL`
  );
}
