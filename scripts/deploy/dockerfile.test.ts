// The Dockerfile as text: what the image promises (non-root, init, health check, labels) and what must stay in
// step with the repository (every workspace's manifest copied before npm ci, the entry point that is built,
// the user id the Helm chart and the compose file run as). Building the image needs podman and a base image,
// which CI does not have: this test cannot show that it builds; `npm run image:test` (scripts/image) does.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() && !line.trim().startsWith('#'));
const all = (keyword: string) =>
  instructions.filter((line) => line.startsWith(`${keyword} `)).map((line) => line.slice(keyword.length + 1).trim());

describe('Dockerfile', () => {
  it('builds in two stages from a base given as an argument, defaulting to the official Node image', () => {
    expect(all('ARG')[0]).toMatch(/^NODE_IMAGE=docker\.io\/library\/node:22-/);
    expect(all('FROM')).toEqual(['${NODE_IMAGE} AS build', '${NODE_IMAGE}']);
  });

  it('copies the manifest of every npm workspace before npm ci', () => {
    const workspaces = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const copied = all('COPY').map((args) => args.split(/\s+/)[0]);
    for (const workspace of workspaces) expect(copied, workspace).toContain(`${workspace}/package.json`);
    for (const source of copied.filter((s): s is string => !!s && s.endsWith('package.json')))
      expect(existsSync(path.join(root, source)), source).toBe(true);
  });

  it('runs the built entry point as a non-root user under tini, with a health check and OCI labels', () => {
    const api = JSON.parse(readFileSync(path.join(root, 'services/server/package.json'), 'utf8')) as { bin: { reelstat: string } };
    const entrypoint = JSON.parse(all('ENTRYPOINT')[0] ?? '[]') as string[];
    expect(entrypoint.slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'node']);
    expect(entrypoint.at(-1)).toBe(path.posix.join('/app/services/server', api.bin.reelstat));
    expect(all('USER')).toEqual(['10001:10001']);
    expect(all('HEALTHCHECK')[0]).toContain('/healthz');
    const labels = all('LABEL').join(' ');
    for (const label of ['title', 'description', 'licenses', 'source', 'version', 'revision', 'created']) {
      expect(labels).toContain(`org.opencontainers.image.${label}=`);
    }
  });

  it('runs as the user the Helm chart and the compose file expect', () => {
    const helpers = readFileSync(path.join(root, 'charts/reelstat/templates/_helpers.tpl'), 'utf8');
    expect(helpers).toContain('runAsUser: {{ .uid | default 10001 }}');
    const compose = parse(readFileSync(path.join(root, 'deploy/compose/compose.yaml'), 'utf8'), { merge: true }) as {
      services: { api: { user: string } };
    };
    expect(compose.services.api.user).toBe('10001:10001');
  });

  it('keeps node_modules, build output and local secrets out of the build context', () => {
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['**/node_modules', '**/dist', 'data', '.git', 'deploy/compose/secrets']) expect(ignored).toContain(entry);
  });
});
