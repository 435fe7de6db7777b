#!/usr/bin/env node
// `npm run image:test`: builds the container image with podman and runs it the only way this machine allows
// (podman cannot run containers here: its runtime's setrlimit is refused). The image's filesystem is exported
// and its ENTRYPOINT, ENV, USER and WORKDIR (read from the image, not repeated here) are run with chroot in a
// private mount namespace, on a read-only root with tmpfs /tmp and /data, as the Helm chart runs it. Then
// /readyz must answer 200 and SIGTERM must stop it with exit code 0. Needs root, podman and debootstrap
// (Debian packages), PostgreSQL and Redis (DATABASE_URL / REDIS_URL, as the tests use).
// Layers are cached by podman: a second run rebuilds only what changed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildLocalBase, imageExists } from './local-base.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = process.env.IMAGE_CACHE_DIR ?? '/var/tmp/reelstat-image';
const image = process.env.IMAGE ?? 'localhost/reelstat:test';
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/15';

const step = (message) => console.log(`image: ${message}`);
const sh = (command, args, options = {}) => execFileSync(command, args, { stdio: 'inherit', ...options });
const out = (command, args) => execFileSync(command, args, { encoding: 'utf8' }).trim();

function fail(message) {
  console.error(`image: FAILED: ${message}`);
  process.exitCode = 1;
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

for (const tool of ['podman', 'debootstrap', 'unshare', 'chroot', 'nsenter']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
    throw new Error(`${tool} is missing (Debian: apt-get install -y podman debootstrap util-linux coreutils)`);
}
mkdirSync(cacheDir, { recursive: true });

// 1. The base: the official Node image when it is there (or NODE_IMAGE), else the local one from Debian packages.
let base = process.env.NODE_IMAGE;
if (!base)
  base = imageExists('docker.io/library/node:22-bookworm-slim') ? 'docker.io/library/node:22-bookworm-slim' : buildLocalBase(cacheDir);
step(`building ${image} from ${base}`);
// This machine's npm configuration and CA bundle (a registry mirror behind its own CA) are mounted for the RUN
// steps only: they never end up in a layer.
const hostNpm = [
  ['/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt'],
  [path.join(process.env.HOME ?? '/root', '.npmrc'), '/root/.npmrc'],
]
  .filter(([from]) => existsSync(from))
  .flatMap(([from, to]) => ['--volume', `${from}:${to}:ro`]);
if (process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS)) {
  hostNpm.push(
    '--volume',
    `${process.env.NODE_EXTRA_CA_CERTS}:/run/build-ca.crt:ro`,
    '--build-arg',
    'NODE_EXTRA_CA_CERTS=/run/build-ca.crt',
  );
}
// chroot isolation: RUN steps without the OCI runtime, which cannot start containers here.
const buildArgs = [
  'build',
  '--isolation=chroot',
  '--network=host',
  '--layers',
  // The docker format keeps HEALTHCHECK (OCI image configs have no field for it).
  '--format',
  'docker',
  ...hostNpm,
  '--build-arg',
  `NODE_IMAGE=${base}`,
  '--build-arg',
  `REVISION=${out('git', ['-C', root, 'rev-parse', 'HEAD'])}`,
  '-t',
  image,
  root,
];
// Here (gVisor) buildah's re-exec for a RUN step now and then fails to seal its memfd copy ("Device or resource
// busy") and the build hangs or fails: each attempt has a deadline, and a retry starts from the cached layers.
for (let attempt = 1; ; attempt++) {
  if (spawnSync('podman', buildArgs, { stdio: 'inherit', timeout: 1_200_000, killSignal: 'SIGKILL' }).status === 0) break;
  if (attempt === 3) throw new Error('podman build failed three times');
  step(`podman build failed; attempt ${attempt + 1}`);
}

// 2. Its filesystem and its configuration.
const [config] = JSON.parse(out('podman', ['image', 'inspect', image]));
const { Entrypoint = [], Cmd = [], Env = [], User = '', WorkingDir = '/' } = config.Config;
const rootfs = path.join(cacheDir, 'rootfs');
rmSync(rootfs, { recursive: true, force: true });
mkdirSync(rootfs, { recursive: true });
const container = out('podman', ['create', image]);
try {
  step(`exporting the filesystem to ${rootfs}`);
  sh('sh', ['-c', `podman export ${container} | tar -x -C '${rootfs}'`]);
} finally {
  sh('podman', ['rm', container], { stdio: 'ignore' });
}
if (!/^\d+(:\d+)?$/.test(User) || User.startsWith('0')) fail(`the image runs as "${User}", not a numeric non-root user`);
// The HEALTHCHECK must survive the build (the OCI format drops it). Podman 4.3's inspect shows it at the top level
// (`Healthcheck`, or `--format '{{.HealthCheck}}'`), not in `Config` (an OCI image config has no such field).
const healthcheck = config.Healthcheck ?? config.Config.Healthcheck;
if (healthcheck?.Test?.[0] !== 'CMD') fail(`the image has no exec-form HEALTHCHECK: ${JSON.stringify(healthcheck)}`);
else step(`HEALTHCHECK in the image: ${healthcheck.Test.slice(1, 2).join(' ')}… every ${healthcheck.Interval / 1e9} s`);

// 3. A database of its own, and the process as the image would start it.
const database = `reelstat_image_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const port = await freePort();
const env = Object.fromEntries(Env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
Object.assign(env, {
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL: new URL(`/${database}`, adminUrl).href,
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: `reelstat-image-${process.pid}`,
  JWT_SECRET: 'image-test-'.repeat(4),
  ROLES: 'api,scheduler,dispatcher',
});
const command = [...Entrypoint, ...Cmd];
const [uid, gid = uid] = User.split(':');
// In a private mount namespace: the root read-only, /tmp and /data tmpfs, /dev and /proc from the host. The
// mounts vanish with the namespace. exec keeps the pid: the signal goes straight to the image's init (tini).
const setup = [
  'set -e',
  `R='${rootfs}'`,
  'mount --make-rprivate /',
  'mount --bind "$R" "$R"',
  'mount --rbind /dev "$R/dev"',
  'mount -t proc proc "$R/proc"',
  'mount -t tmpfs -o mode=1777 tmpfs "$R/tmp"',
  `mount -t tmpfs -o uid=${uid},gid=${gid},mode=0700 tmpfs "$R/data"`,
  'mount -o remount,bind,ro "$R"',
  `exec chroot --userspec=${uid}:${gid} "$R" /usr/bin/env -i ${Object.entries(env)
    .map(([k, v]) => `'${k}=${v}'`)
    .join(' ')} sh -c 'cd ${WorkingDir} && exec "$@"' entrypoint ${command.map((part) => `'${part}'`).join(' ')}`,
].join('\n');
step(`running ${command.join(' ')} as ${User} (chroot, read-only root) on port ${port}`);
const child = spawn('unshare', ['--mount', '--fork', 'sh', '-c', setup], { stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
try {
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the entrypoint exited with ${child.exitCode}:\n${output}`);
      return fetch(`http://127.0.0.1:${port}/readyz`).then(
        (res) => res.status === 200,
        () => false,
      );
    },
    '/readyz',
    180_000,
  );
  step('/readyz answered 200');
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  if (health.status !== 200) fail(`/healthz answered ${health.status}`);
  // The signal goes to the image's init (unshare's child: sh, chroot and env exec'd into it), as the container
  // runtime would send it; tini forwards it to Node.
  const init = Number(out('pgrep', ['-P', String(child.pid)]).split('\n')[0]);
  if (healthcheck?.Test?.[0] === 'CMD') {
    // The HEALTHCHECK's own command, run as the runtime would: inside the running container (its mounts, its
    // root, its user and environment).
    const probe = spawnSync(
      'nsenter',
      [
        `--target=${init}`,
        '--mount',
        '--root',
        `--setuid=${uid}`,
        `--setgid=${gid}`,
        '/usr/bin/env',
        '-i',
        ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
        ...healthcheck.Test.slice(1),
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (probe.status !== 0) fail(`the HEALTHCHECK command exited with ${probe.status}: ${probe.stderr}`);
    else step('the HEALTHCHECK command passes in the running container');
  }
  if (!out('cat', [`/proc/${init}/cmdline`]).includes('tini')) fail(`pid ${init} is not the image's init`);
  process.kill(init, 'SIGTERM');
  const code = await exited;
  if (code !== 0) fail(`SIGTERM: exit ${code}\n${output}`);
  else if (!/"msg":"stopped"/.test(output)) fail(`exit 0 without the "stopped" log line:\n${output}`);
  else step('SIGTERM: drained and stopped with exit code 0');
} catch (error) {
  fail(error.message);
  child.kill('SIGKILL');
  await exited;
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}
if (!process.exitCode) step(`OK: ${image} (${out('podman', ['image', 'inspect', '--format', '{{.Size}}', image])} bytes)`);
