import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import dockerignoreModule from '@balena/dockerignore';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// The Dockerfile's `COPY . .` takes whatever the build context holds: what .dockerignore leaves in goes into the image.
// A CommonJS module: its function is the default export, or the module itself, depending on the loader.
const dockerignore = ((dockerignoreModule as unknown as { default?: typeof dockerignoreModule }).default ??
  dockerignoreModule) as unknown as typeof import('@balena/dockerignore').default;
const ignored = dockerignore({ ignorecase: false }).add(readFileSync(`${root}.dockerignore`, 'utf8'));
const sent = (path: string) => !ignored.ignores(path);

/** Secrets a developer or an operator keeps beside the code, which must never end up in an image layer. */
const SECRETS = [
  '.env',
  '.env.production',
  '.env.local',
  'backend/.env',
  'deploy/.env.prod',
  '.data/personal-data.key',
  '.data/avatars/0a1b.webp',
  'deploy/tls/server.key',
  'deploy/tls/server.pem',
  'nats.creds',
  'deploy/nats/backend.creds',
];

describe('the Docker build context', () => {
  it.each(SECRETS)('leaves out %s', (path) => {
    expect(sent(path)).toBe(false);
  });

  it('still sends the sources and the lock file the image is built from', () => {
    for (const path of [
      'package.json',
      'package-lock.json',
      'backend/src/main.ts',
      'frontend/index.html',
      'scripts/mediasoup-worker.mjs',
      '.env.example',
    ]) {
      expect(sent(path), path).toBe(true);
    }
  });
});
