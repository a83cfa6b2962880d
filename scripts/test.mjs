// `npm test`: install what is missing, build, then every check: lint, format, import rules, typecheck, and all vitest
// projects (unit, integration, HTTP/socket, browser). Ends with one line `N passed, N failed`.
// Uses DATABASE_URL when set; otherwise the tests start an embedded Postgres of their own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { checkNode, ensureBuilt, ensureInstalled, ensureMediaWorker, root, say } from './setup.mjs';

checkNode();
ensureInstalled();
ensureBuilt();
ensureChromium();
// The relay and snapshot tests need the worker (CI sets REQUIRE_MEDIASOUP=1: a missing one fails them, no skip).
await ensureMediaWorker({ installMissing: true });

const bin = (name) => path.join(root, 'node_modules/.bin', name);
const results = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

check('lint (eslint)', bin('eslint'), ['.', '--max-warnings', '0']);
check('format (prettier)', bin('prettier'), ['--check', '.', '--log-level', 'warn']);
check('boundaries (dependency-cruiser)', 'npm', ['run', 'lint:boundaries', '--silent']);
check('typecheck', 'npm', ['run', 'typecheck', '--silent']);

const report = path.join(root, 'test-results/vitest.json');
rmSync(report, { force: true });
mkdirSync(path.dirname(report), { recursive: true });
say('vitest: proto, backend, sfu, bench, scripts, frontend, e2e');
const vitest = spawnSync(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (existsSync(report)) {
  const json = readJson(report);
  results.passed += json.numPassedTests;
  results.failed += json.numFailedTests;
  results.skipped += json.numPendingTests + json.numTodoTests;
  for (const file of json.testResults) {
    const failedTests = file.assertionResults.filter((t) => t.status === 'failed');
    failedTests.forEach((t) => failures.push(`${path.relative(root, file.name)} > ${t.fullName}`));
    // A file that failed to load has no failed test of its own: count it, or it would pass unseen.
    if (file.status === 'failed' && failedTests.length === 0) {
      results.failed += 1;
      failures.push(`${path.relative(root, file.name)}: ${(file.message || 'failed to run').split('\n')[0]}`);
    }
  }
} else {
  results.failed += 1;
  failures.push(`vitest produced no report (exit ${vitest.status ?? vitest.signal})`);
}
// A setup that crashed, or a run that found no test, must not read as green.
if ((vitest.status !== 0 || !existsSync(report) || readJson(report).success === false) && results.failed === 0) {
  results.failed += 1;
  failures.push(`vitest did not succeed (exit ${vitest.status ?? vitest.signal}); see its output above`);
}
if (existsSync(report) && readJson(report).numTotalTests === 0) {
  results.failed += 1;
  failures.push('vitest ran no test');
}

if (failures.length) {
  process.stdout.write('\nFailed:\n');
  for (const f of failures) process.stdout.write(`  - ${f}\n`);
}
const skipped = results.skipped ? `, ${results.skipped} skipped` : '';
process.stdout.write(`\n${results.passed} passed, ${results.failed} failed${skipped}\n`);
process.exit(results.failed ? 1 : 0);

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function check(name, command, args) {
  say(name);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status === 0) results.passed += 1;
  else {
    results.failed += 1;
    failures.push(name);
  }
}

/**
 * Browser tests need Chromium, and the call test coturn; as root with apt (CI, a fresh machine) we install what is
 * missing, else those tests are skipped with the reason printed.
 */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const missing = [
    ...(existsSync(chromium) ? [] : ['chromium']),
    ...(existsSync('/usr/bin/turnserver') ? [] : ['coturn']),
  ];
  if (missing.length === 0) return;
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    say(`installing ${missing.join(' and ')} for the browser tests (apt-get install -y ${missing.join(' ')})...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
  }
  if (!existsSync(chromium)) say(`no Chromium at ${chromium}: browser tests will be skipped (see README)`);
  if (!existsSync('/usr/bin/turnserver')) say('no coturn (/usr/bin/turnserver): the relayed-call test will be skipped');
}
