import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules of `npm run lint` (../shared/DESIGN.md, Conventions: contexts import each other only through
// `public/`), run as lint runs them, with the repository's own config, over a small tree laid out like ours.
const root = fileURLToPath(new URL('../../', import.meta.url));

/** Files of the fixture and their text; comments say what each import should show. */
const fixture: Record<string, string> = {
  // Resolution as in the repository: NodeNext `.js` imports of `.ts` files, @serendip/proto from its sources.
  'tsconfig.tests.json': JSON.stringify({
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      paths: { '@serendip/proto': ['./proto/src/index.ts'] },
    },
  }),
  'proto/src/index.ts': `export const VIDEO_NAMESPACE = '/video';\n`,
  'backend/src/config/config.ts': `export const config = {};\n`,
  'backend/src/identity/sessions/access-tokens.ts': `export const verify = () => true;\n`,
  'backend/src/identity/public/index.ts': [
    `import { verify } from '../sessions/access-tokens.js';`,
    `export const resolveSession = verify;`,
    '',
  ].join('\n'),
  // no-circular, though one of the two imports is type-only.
  'backend/src/platform/mail/mail-sender.ts': [
    `import { DevOutbox } from './dev-outbox.js';`,
    `export const make = () => new DevOutbox();`,
    `export interface MailSender { send(): void }`,
    '',
  ].join('\n'),
  'backend/src/platform/mail/dev-outbox.ts': [
    `import type { MailSender } from './mail-sender.js';`,
    `export class DevOutbox implements MailSender { send() {} }`,
    '',
  ].join('\n'),
  // platform-knows-no-context, even of a context's public/.
  'backend/src/platform/realtime/realtime.ts': [
    `import { resolveSession } from '../../identity/public/index.js';`,
    `export const realtime = resolveSession;`,
    '',
  ].join('\n'),
  // context-boundaries: only identity's internals break it; proto, npm, config, platform, public/ and its own
  // context are allowed.
  'backend/src/matching/gateway/video.gateway.ts': [
    `import { VIDEO_NAMESPACE } from '@serendip/proto';`,
    `import { z } from 'zod';`,
    `import { config } from '../../config/config.js';`,
    `import { resolveSession } from '../../identity/public/index.js';`,
    `import { verify } from '../../identity/sessions/access-tokens.js';`,
    `import { make } from '../../platform/mail/mail-sender.js';`,
    `import { decide } from '../domain/decide.js';`,
    `export const all = [VIDEO_NAMESPACE, z, config, resolveSession, verify, make, decide];`,
    '',
  ].join('\n'),
  // domain-is-pure: Nest, express (a type-only import too) and an http/ folder.
  'backend/src/matching/domain/decide.ts': [
    `import { Injectable } from '@nestjs/common';`,
    `import type { Request } from 'express';`,
    `import { routes } from '../http/routes.js';`,
    `export const decide = (_: Request) => [Injectable, routes];`,
    '',
  ].join('\n'),
  'backend/src/matching/http/routes.ts': `export const routes = [];\n`,
  // A spec may use its own context and test-support/, but not another context's internals.
  'backend/src/matching/gateway/video.gateway.e2e.spec.ts': [
    `import { verify } from '../../identity/sessions/access-tokens.js';`,
    `import { newUser } from '../../test-support/users.js';`,
    `import { all } from './video.gateway.js';`,
    `export const used = [verify, newUser, all];`,
    '',
  ].join('\n'),
  // test-support/ and the top-level composition files may import anything.
  'backend/src/test-support/users.ts': [
    `import { verify } from '../identity/sessions/access-tokens.js';`,
    `export const newUser = verify;`,
    '',
  ].join('\n'),
  'backend/src/app.module.ts': [
    `import { verify } from './identity/sessions/access-tokens.js';`,
    `import { all } from './matching/gateway/video.gateway.js';`,
    `export const app = [verify, all];`,
    '',
  ].join('\n'),
};

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'serendip-boundaries-'));
  for (const [file, text] of Object.entries(fixture)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  // npm packages resolve as they do in the repository (the domain rule sees node_modules/@nestjs/...).
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** `depcruise` with the repository's config over the fixture, reporting as `outputType`. */
function depcruise(outputType: 'err' | 'json'): Promise<{ code: number | null; stdout: string }> {
  const args = ['proto/src', 'backend/src', '--config', path.join(root, '.dependency-cruiser.cjs'), '-T', outputType];
  return new Promise((resolve, reject) => {
    execFile(path.join(root, 'node_modules/.bin/depcruise'), args, { cwd: dir }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else if (!stdout) reject(new Error(`depcruise printed nothing (exit ${error?.code ?? 0}): ${stderr}`));
      else resolve({ code: error ? (error.code as number) : 0, stdout });
    });
  });
}

/** Each violation as `rule: from -> to`, a cycle with every step. */
function violationsOf(json: string): string[] {
  const result = JSON.parse(json) as { summary: { violations: Violation[] } };
  // The fixture's node_modules is a link to the repository's: show packages as `node_modules/<name>/...`.
  const show = (file: string) => file.replace(/^.*?node_modules\//, 'node_modules/');
  return result.summary.violations
    .map((v) =>
      v.cycle
        ? `${v.rule.name}: ${[v.from, ...v.cycle.map((step) => step.name)].join(' -> ')}`
        : `${v.rule.name}: ${v.from} -> ${show(v.to)}`,
    )
    .sort();
}

describe('import rules (.dependency-cruiser.cjs)', () => {
  let lint: { code: number | null; stdout: string };
  let violations: string[];
  beforeAll(async () => {
    // `err` is what `npm run lint` prints (its exit code counts the errors); `json` says which rule broke where.
    const [err, json] = await Promise.all([depcruise('err'), depcruise('json')]);
    lint = err;
    violations = violationsOf(json.stdout);
  });

  it('fails the lint step, naming each broken rule', () => {
    expect(lint.code).not.toBe(0);
    for (const rule of ['no-circular', 'context-boundaries', 'domain-is-pure', 'platform-knows-no-context']) {
      expect(lint.stdout).toContain(`error ${rule}: `);
    }
  });

  it('names the broken rule of each violation, and reports nothing the rules allow', () => {
    expect(violations).toEqual([
      'context-boundaries: backend/src/matching/gateway/video.gateway.e2e.spec.ts -> backend/src/identity/sessions/access-tokens.ts',
      'context-boundaries: backend/src/matching/gateway/video.gateway.ts -> backend/src/identity/sessions/access-tokens.ts',
      'domain-is-pure: backend/src/matching/domain/decide.ts -> backend/src/matching/http/routes.ts',
      'domain-is-pure: backend/src/matching/domain/decide.ts -> node_modules/@nestjs/common/index.js',
      'domain-is-pure: backend/src/matching/domain/decide.ts -> node_modules/express/index.js',
      'no-circular: backend/src/platform/mail/dev-outbox.ts -> backend/src/platform/mail/mail-sender.ts -> backend/src/platform/mail/dev-outbox.ts',
      'platform-knows-no-context: backend/src/platform/realtime/realtime.ts -> backend/src/identity/public/index.ts',
    ]);
  });

  it("lets a context import another context's public/ folder", () => {
    const fromMatching = violations.filter((v) => v.includes('matching/') && v.includes('identity/public/'));
    expect(fromMatching).toEqual([]);
  });
});
