import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load-config.js';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'reelstat-config-'));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      baseUrl: '',
      logLevel: 'info',
      timeZone: 'UTC',
      roles: ['api', 'scheduler', 'dispatcher', 'operator'],
      embeddedDatabase: true,
    });
  });

  it('turns the update check off with UPDATE_CHECK_URL= (empty), as documented', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), UPDATE_CHECK_URL: '' }).updateCheckUrl).toBe('');
    expect(loadConfig({ DATA_DIR: tempDir(), UPDATE_CHECK_URL: '  ' }).updateCheckUrl).toBe('');
    expect(loadConfig({ DATA_DIR: tempDir() }).updateCheckUrl).toMatch(/^https:\/\//);
  });

  it('generates JWT_SECRET once under DATA_DIR and reuses it', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
    expect(readFileSync(path.join(dataDir, 'secrets', 'jwt-secret'), 'utf8').trim()).toBe(first);
  });

  it('reads <NAME>_FILE variants for secrets', () => {
    const dir = tempDir();
    const secretFile = path.join(dir, 'jwt');
    writeFileSync(secretFile, 'a-secret-that-is-long-enough-for-signing-tokens\n');
    const urlFile = path.join(dir, 'db');
    writeFileSync(urlFile, 'postgres://user:pw@db.example:5432/reelstat');
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET_FILE: secretFile, DATABASE_URL_FILE: urlFile });
    expect(config.jwtSecret).toBe('a-secret-that-is-long-enough-for-signing-tokens');
    expect(config.databaseUrl).toBe('postgres://user:pw@db.example:5432/reelstat');
    expect(config.embeddedDatabase).toBe(false);
  });

  it('parses roles, base URL, time zone and numbers', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      ROLES: 'api, scheduler,api',
      BASE_URL: '/reelstat/',
      TZ: 'Asia/Kolkata',
      PORT: '8080',
    });
    expect(config.roles).toEqual(['api', 'scheduler']);
    expect(config.baseUrl).toBe('/reelstat');
    expect(config.timeZone).toBe('Asia/Kolkata');
    expect(config.port).toBe(8080);
  });

  it('takes a shutdown drain shorter than the shutdown timeout, none by default', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).shutdownDrainMs).toBe(0);
    expect(loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_DRAIN_MS: '5000' }).shutdownDrainMs).toBe(5000);
    expect(problemsOf({ DATA_DIR: tempDir(), SHUTDOWN_DRAIN_MS: '15000' })).toEqual([
      'SHUTDOWN_DRAIN_MS must be below SHUTDOWN_TIMEOUT_MS',
    ]);
    expect(problemsOf({ DATA_DIR: tempDir(), SHUTDOWN_DRAIN_MS: '-1' })[0]).toMatch(/^SHUTDOWN_DRAIN_MS: /);
  });

  it('takes auto or a size for the embedded PostgreSQL shared buffers', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).embeddedPostgresSharedBuffers).toBe('auto');
    expect(loadConfig({ DATA_DIR: tempDir(), EMBEDDED_POSTGRES_SHARED_BUFFERS: ' 768MB ' }).embeddedPostgresSharedBuffers).toBe('768MB');
    for (const bad of ['lots', '512', '0MB', '2 GB', '1TB', '-1GB']) {
      expect(problemsOf({ DATA_DIR: tempDir(), EMBEDDED_POSTGRES_SHARED_BUFFERS: bad }), bad).toEqual([
        `EMBEDDED_POSTGRES_SHARED_BUFFERS: must be auto or a size such as 512MB or 2GB (got "${bad}")`,
      ]);
    }
  });

  it('lists every bad variable in one error', () => {
    const problems = problemsOf({
      DATA_DIR: tempDir(),
      PORT: 'eighty',
      ROLES: 'api,web',
      TZ: 'Mars/Olympus',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://x',
      BASE_URL: 'no-slash',
      JWT_SECRET: 'short',
    });
    const text = problems.join('\n');
    expect(problems).toHaveLength(7);
    expect(text).toMatch(/^PORT: must be a number/m);
    expect(text).toMatch(/^ROLES.*must be one of api, scheduler, dispatcher, operator/m);
    expect(text).toMatch(/^TZ: must be an IANA time zone/m);
    expect(text).toMatch(/^LOG_LEVEL: must be one of/m);
    expect(text).toMatch(/^DATABASE_URL: must be a URL starting with postgres:/m);
    expect(text).toMatch(/^BASE_URL: must be a path/m);
    expect(text).toMatch(/^JWT_SECRET: must be at least 32 characters/m);
    // Secrets are never echoed back.
    expect(text).not.toContain('short');
  });

  it('refuses a variable given both directly and as a file, and a missing file', () => {
    const problems = problemsOf({
      DATA_DIR: tempDir(),
      JWT_SECRET: 'x'.repeat(40),
      JWT_SECRET_FILE: '/nonexistent',
      REDIS_URL_FILE: '/nonexistent/redis',
    });
    expect(problems.sort()).toEqual([
      'JWT_SECRET: set both JWT_SECRET and JWT_SECRET_FILE; set only one',
      'REDIS_URL_FILE: cannot read /nonexistent/redis (ENOENT)',
    ]);
  });
});
