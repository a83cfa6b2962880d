#!/usr/bin/env node
// Finds or builds the mediasoup worker binary and prints its path.
//
// mediasoup's own postinstall downloads a prebuilt worker from GitHub or builds it with pip-installed meson; neither
// reaches the internet from our machines, so package.json skips that script (`allowScripts`) and this builds the
// worker from the npm package's own sources with Debian's libraries instead (../shared/notes/mediasoup-on-debian.md).
// The binary is cached by version outside the work tree, so only the first run on a machine pays for the build.
//
//   node scripts/mediasoup-worker.mjs            prints the worker's path, building it if needed (~3 min on 2 cores)
//   node scripts/mediasoup-worker.mjs --find     prints the path only if a worker is already there (exit 1 if not)
//   node scripts/mediasoup-worker.mjs --deps     prints the Debian packages the build needs
//
// Order: MEDIASOUP_WORKER_BIN if it names a file, the cache, the npm package's own build (a machine where the
// prebuilt download worked), then a build here.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
export const BUILD_PACKAGES = [
  'meson',
  'ninja-build',
  'pkg-config',
  'g++',
  'make',
  'libuv1-dev',
  'libssl-dev',
  'libsrtp2-dev',
  'libusrsctp-dev',
  'libabsl-dev',
  'nlohmann-json3-dev',
];

function log(message) {
  process.stderr.write(`[mediasoup-worker] ${message}\n`);
}

/** The installed mediasoup package's folder and version, or undefined when it is not installed. */
export function mediasoupPackage() {
  try {
    const manifest = require.resolve('mediasoup/package.json', { paths: [join(import.meta.dirname, '..', 'sfu')] });
    return { dir: dirname(manifest), version: JSON.parse(readFileSync(manifest, 'utf8')).version };
  } catch {
    return undefined;
  }
}

export function cachedWorkerPath(version) {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'serendip', 'mediasoup-worker', version, 'mediasoup-worker');
}

/** A worker that runs: a binary from another version or with missing libraries would fail at the first call. */
function runs(bin) {
  if (!existsSync(bin)) return false;
  const result = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 5_000, env: { MEDIASOUP_VERSION: 'x' } });
  return result.error === undefined && !/error while loading shared libraries/.test(result.stderr ?? '');
}

export function findWorker() {
  const pkg = mediasoupPackage();
  if (!pkg) return undefined;
  const candidates = [
    process.env.MEDIASOUP_WORKER_BIN,
    cachedWorkerPath(pkg.version),
    join(pkg.dir, 'worker', 'out', 'Release', 'mediasoup-worker'),
  ].filter(Boolean);
  return candidates.find(runs);
}

function missingBuildTools() {
  const tools = ['meson', 'ninja', 'pkg-config', 'g++'];
  const missing = tools.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  const libs = ['libuv', 'openssl', 'libsrtp2', 'usrsctp', 'absl_container_common', 'nlohmann_json'];
  for (const lib of libs) if (spawnSync('pkg-config', ['--exists', lib]).status !== 0) missing.push(lib);
  return missing;
}

// One subproject per wrap file: the worker's meson.build reads these variables from each (see the notes).
const SUBPROJECTS = {
  openssl: `project('openssl', 'c')
openssl_dep = dependency('openssl')
libcrypto_dep = dependency('libcrypto')
libssl_dep = dependency('libssl')
libcrypto_lib = static_library('empty_crypto', [])
libssl_lib = static_library('empty_ssl', [])
`,
  nlohmann_json: `project('nlohmann_json', 'cpp')
nlohmann_json_dep = dependency('nlohmann_json')
`,
  libuv: `project('libuv', 'c')
libuv_dep = dependency('libuv')
libuv = static_library('empty_uv', [])
`,
  libsrtp2: `project('libsrtp2', 'c')
libsrtp2_dep = declare_dependency(
  dependencies: dependency('libsrtp2'),
  include_directories: include_directories(run_command('pkg-config', '--variable=includedir', 'libsrtp2', check: true).stdout().strip() / 'srtp2'),
)
libsrtp2 = static_library('empty_srtp', [])
`,
  usrsctp: `project('usrsctp', 'c')
usrsctp_dep = dependency('usrsctp')
usrsctp = static_library('empty_usrsctp', [])
`,
  'abseil-cpp': `project('abseil-cpp', 'cpp')
absl_container_dep = declare_dependency(dependencies: [
  dependency('absl_container_common'), dependency('absl_flat_hash_map'), dependency('absl_flat_hash_set'),
  dependency('absl_raw_hash_set'), dependency('absl_hash'),
])
absl_strings_dep = dependency('absl_strings')
absl_types_dep = declare_dependency(dependencies: [dependency('absl_optional'), dependency('absl_variant'), dependency('absl_span')])
absl_container_lib = static_library('empty_absl', [])
`,
  catch2: `project('catch2', 'cpp')
catch2_dep = declare_dependency()
`,
};
const SUBPROJECT_OPTIONS = {
  libuv:
    "option('build_tests', type: 'boolean', value: false)\noption('build_benchmarks', type: 'boolean', value: false)\n",
  libsrtp2:
    "option('crypto-library', type: 'string', value: 'openssl')\noption('crypto-library-kdf', type: 'string', value: 'disabled')\noption('tests', type: 'string', value: 'disabled')\n",
  usrsctp: "option('sctp_build_programs', type: 'boolean', value: false)\n",
};

export function buildWorker(pkg) {
  const missing = missingBuildTools();
  if (missing.length) {
    throw new Error(
      `cannot build the mediasoup worker: missing ${missing.join(', ')} (apt-get install -y ${BUILD_PACKAGES.join(' ')})`,
    );
  }
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'mediasoup-worker-'));
  try {
    const source = join(work, 'worker');
    cpSync(join(pkg.dir, 'worker'), source, { recursive: true, filter: (path) => !path.includes('/out/') });
    const subprojects = join(source, 'subprojects');
    rmSync(subprojects, { recursive: true, force: true });
    for (const [name, build] of Object.entries(SUBPROJECTS)) {
      mkdirSync(join(subprojects, name), { recursive: true });
      writeFileSync(join(subprojects, name, 'meson.build'), build);
      if (SUBPROJECT_OPTIONS[name])
        writeFileSync(join(subprojects, name, 'meson_options.txt'), SUBPROJECT_OPTIONS[name]);
    }
    // Debian bookworm's meson is 1.0.1; the worker builds fine with it.
    const mesonBuild = join(source, 'meson.build');
    writeFileSync(
      mesonBuild,
      readFileSync(mesonBuild, 'utf8').replace(/meson_version: '>= [\d.]+'/, "meson_version: '>= 0.63'"),
    );
    log(`building mediasoup ${pkg.version}'s worker from the npm package's sources (3 to 6 minutes on 2 cores)`);
    const run = (cmd, args) => execFileSync(cmd, args, { cwd: source, stdio: ['ignore', 'ignore', 'inherit'] });
    run('meson', ['setup', 'build', '--buildtype', 'release', '-Db_ndebug=true', '-Db_pie=true', '-Db_staticpic=true']);
    run('ninja', ['-C', 'build', 'mediasoup-worker']);
    run('strip', [join('build', 'mediasoup-worker')]);
    const target = cachedWorkerPath(pkg.version);
    mkdirSync(dirname(target), { recursive: true });
    // Copied next to the target and renamed, so a concurrent run never sees half a binary.
    const partial = `${target}.${process.pid}.partial`;
    cpSync(join(source, 'build', 'mediasoup-worker'), partial);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
    log(`built in ${Math.round((Date.now() - started) / 1000)} s: ${target}`);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The worker's path: found, or built now. Throws with the reason when neither works. */
export function ensureWorker() {
  const found = findWorker();
  if (found) return found;
  const pkg = mediasoupPackage();
  if (!pkg) throw new Error('the mediasoup package is not installed (run npm ci)');
  return buildWorker(pkg);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const arg = process.argv[2];
  if (arg === '--deps') {
    console.log(BUILD_PACKAGES.join(' '));
  } else if (arg === '--find') {
    const found = findWorker();
    if (!found) process.exit(1);
    console.log(found);
  } else {
    try {
      console.log(ensureWorker());
    } catch (error) {
      log(error.message);
      process.exit(1);
    }
  }
}
