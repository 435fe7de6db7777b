import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { envSchema, type Env, type RoleName } from './env-schema.js';

/** The typed configuration every part of Reelstat receives. Nothing else reads process.env. */
export interface AppConfig {
  port: number;
  host: string;
  /** Express "trust proxy": false (the default) or the proxies whose X-Forwarded-For is believed. */
  trustProxy: false | number | string;
  httpMaxSocketsPerClient: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  /** shared_buffers of the embedded PostgreSQL: `auto` or a size (embedded-postgres.ts sharedBuffersSetting). */
  embeddedPostgresSharedBuffers: string;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  jwtSecret: string;
  encryptionKey: string;
  tokenTtlHours: number;
  /** How long after logging in a token can still be renewed (POST /auth/renew). */
  tokenRenewMaxHours: number;
  loginMaxFailures: number;
  loginLockoutMinutes: number;
  /** First administrator created at start-up when set (GitOps); the password is plain text here. */
  bootstrapAdmin: { username: string; password: string } | undefined;
  /** OpenID Connect sign-in, when OIDC_ISSUER and OIDC_CLIENT_ID are set (docs/security.md). */
  oidc: OidcConfig | undefined;
  /** Media-server link applied at start-up when set (GitOps). */
  bootstrapMediaServer: { url: string; apiKey: string } | undefined;
  updateCheckUrl: string;
  baseUrl: string;
  logLevel: Env['LOG_LEVEL'];
  logFormat: Env['LOG_FORMAT'];
  timeZone: string;
  roles: RoleName[];
  metricsEnabled: boolean;
  metricsPublic: boolean;
  leaderElection: Env['LEADER_ELECTION'];
  leaderLockRenewMs: number;
  /** Kubernetes Lease election timings (client-go's defaults: 15 s, 10 s, 2 s). */
  leaderLease: { durationMs: number; renewDeadlineMs: number; retryMs: number };
  /**
   * How to reach the Kubernetes API: inside a pod (KUBERNETES_SERVICE_HOST set) its service account; outside,
   * KUBECONFIG or ~/.kube/config. namespace: POD_NAMESPACE, else the kubeconfig context's (or the pod's).
   */
  kubernetes: { inCluster: boolean; kubeconfigPath: string | undefined; namespace: string | undefined; podName: string | undefined };
  shutdownTimeoutMs: number;
  /** On SIGTERM, how long to keep serving with /readyz at 503 before closing (a load balancer moves off first). */
  shutdownDrainMs: number;
  instanceId: string;
  /** True when PostgreSQL is started by Reelstat itself (no DATABASE_URL). */
  embeddedDatabase: boolean;
  /** IP geolocation: the MaxMind GeoLite2 web service (account id + licence key) and/or a local .mmdb file. */
  geolocation: { accountId: string | undefined; licenseKey: string | undefined; serviceUrl: string; databasePath: string | undefined };
  /** Webhook delivery by the dispatcher role (services/core/src/webhooks). */
  webhooks: {
    timeoutMs: number;
    maxAttempts: number;
    retryBaseMs: number;
    retryMaxMs: number;
    concurrency: number;
    hostConcurrency: number;
    pollIntervalMs: number;
    leaseMs: number;
    allowLinkLocal: boolean;
    maxResponseBytes: number;
    retentionDays: number;
  };
  /** Where backups live (a directory, or S3-compatible storage when a bucket is set) and the upload limit. */
  backup: {
    dir: string;
    s3: BackupS3Config | undefined;
    uploadMaxBytes: number;
    compress: boolean;
  };
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only). */
  clientSecret: string | undefined;
  /** The button says "Sign in with <label>". */
  label: string;
  scopes: string;
  /** Members of any of these groups are admins; everyone else a viewer. */
  adminGroups: string[];
  groupsClaim: string;
  usernameClaim: string;
  /** The claim whose value names the media-server user the person is (their "own" statistics). */
  linkClaim: string;
  /** Set: the redirect URI registered at the provider; absent: derived from the request (…/auth/oidc/callback). */
  redirectUrl: string | undefined;
}

export interface BackupS3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  prefix: string;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const FILE_SUFFIX = '_FILE';

/** Variables whose empty value means something (off), so `NAME=` is not the same as leaving NAME unset. */
const EMPTY_IS_A_VALUE = new Set(['UPDATE_CHECK_URL']);

/**
 * Reads <NAME> or <NAME>_FILE for every known variable. Both set is an error (which one wins would be a guess).
 */
function resolveRawEnv(env: NodeJS.ProcessEnv, problems: string[]): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(envSchema.shape)) {
    const direct = env[name];
    const filePath = env[`${name}${FILE_SUFFIX}`];
    if (direct !== undefined && direct !== '' && filePath) {
      problems.push(`${name}: set both ${name} and ${name}${FILE_SUFFIX}; set only one`);
      continue;
    }
    if (filePath) {
      try {
        raw[name] = readFileSync(filePath, 'utf8').replace(/\r?\n$/, '');
      } catch (error) {
        problems.push(`${name}${FILE_SUFFIX}: cannot read ${filePath} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    } else if (direct !== undefined && (direct !== '' || EMPTY_IS_A_VALUE.has(name))) {
      raw[name] = direct;
    }
  }
  return raw;
}

/** Parses the environment once. Throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<string, string>> = {}): AppConfig {
  const problems: string[] = [];
  const raw = { ...resolveRawEnv(env, problems), ...definedOnly(overrides) };
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.') || 'environment';
      const value = raw[name];
      const shown = value === undefined || /SECRET|PASSWORD|KEY|URL/.test(name) ? '' : ` (got "${value}")`;
      problems.push(`${name}: ${issue.message}${shown}`);
    }
  }
  if (parsed.success) {
    const pairs: Array<[keyof typeof parsed.data, keyof typeof parsed.data]> = [
      ['ADMIN_USERNAME', 'ADMIN_PASSWORD'],
      ['MEDIA_SERVER_URL', 'MEDIA_SERVER_API_KEY'],
      ['OIDC_ISSUER', 'OIDC_CLIENT_ID'],
      ['BACKUP_S3_ACCESS_KEY_ID', 'BACKUP_S3_SECRET_ACCESS_KEY'],
    ];
    for (const [a, b] of pairs) {
      if ((parsed.data[a] === undefined) !== (parsed.data[b] === undefined))
        problems.push(`${a} and ${b} go together: set both or neither`);
    }
  }
  if (parsed.success) {
    const { LEADER_LEASE_DURATION_MS: duration, LEADER_LEASE_RENEW_DEADLINE_MS: deadline, LEADER_LEASE_RETRY_MS: retry } = parsed.data;
    // The leader must give up before anyone may take over, and must get several tries before giving up.
    if (!(retry < deadline && deadline < duration))
      problems.push('LEADER_LEASE_RETRY_MS < LEADER_LEASE_RENEW_DEADLINE_MS < LEADER_LEASE_DURATION_MS must hold');
    // The drain is part of the shutdown: the work in progress needs time after it.
    if (parsed.data.SHUTDOWN_DRAIN_MS >= parsed.data.SHUTDOWN_TIMEOUT_MS)
      problems.push('SHUTDOWN_DRAIN_MS must be below SHUTDOWN_TIMEOUT_MS');
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    port: values.PORT,
    host: values.HOST,
    trustProxy: values.TRUST_PROXY === '' ? false : /^\d+$/.test(values.TRUST_PROXY) ? Number(values.TRUST_PROXY) : values.TRUST_PROXY,
    httpMaxSocketsPerClient: values.HTTP_MAX_SOCKETS_PER_CLIENT,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    databasePoolMax: values.DATABASE_POOL_MAX,
    embeddedPostgresSharedBuffers: values.EMBEDDED_POSTGRES_SHARED_BUFFERS,
    redisUrl: values.REDIS_URL,
    redisKeyPrefix: values.REDIS_KEY_PREFIX,
    jwtSecret: values.JWT_SECRET ?? loadOrCreateSecret(dataDir, 'jwt-secret'),
    encryptionKey: values.ENCRYPTION_KEY ?? loadOrCreateSecret(dataDir, 'encryption-key'),
    tokenTtlHours: values.TOKEN_TTL_HOURS,
    tokenRenewMaxHours: values.TOKEN_RENEW_MAX_HOURS,
    loginMaxFailures: values.LOGIN_MAX_FAILURES,
    loginLockoutMinutes: values.LOGIN_LOCKOUT_MINUTES,
    bootstrapAdmin:
      values.ADMIN_USERNAME && values.ADMIN_PASSWORD ? { username: values.ADMIN_USERNAME, password: values.ADMIN_PASSWORD } : undefined,
    oidc:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID
        ? {
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            label: values.OIDC_LABEL,
            scopes: values.OIDC_SCOPES,
            adminGroups: values.OIDC_ADMIN_GROUPS.split(',')
              .map((group) => group.trim())
              .filter(Boolean),
            groupsClaim: values.OIDC_GROUPS_CLAIM,
            usernameClaim: values.OIDC_USERNAME_CLAIM,
            linkClaim: values.OIDC_LINK_CLAIM,
            redirectUrl: values.OIDC_REDIRECT_URL,
          }
        : undefined,
    bootstrapMediaServer:
      values.MEDIA_SERVER_URL && values.MEDIA_SERVER_API_KEY
        ? { url: values.MEDIA_SERVER_URL, apiKey: values.MEDIA_SERVER_API_KEY }
        : undefined,
    updateCheckUrl: values.UPDATE_CHECK_URL,
    baseUrl: values.BASE_URL,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    timeZone: values.TZ,
    roles: values.ROLES,
    metricsEnabled: values.METRICS_ENABLED,
    metricsPublic: values.METRICS_PUBLIC,
    leaderElection: values.LEADER_ELECTION,
    leaderLockRenewMs: values.LEADER_LOCK_RENEW_MS,
    leaderLease: {
      durationMs: values.LEADER_LEASE_DURATION_MS,
      renewDeadlineMs: values.LEADER_LEASE_RENEW_DEADLINE_MS,
      retryMs: values.LEADER_LEASE_RETRY_MS,
    },
    kubernetes: {
      inCluster: values.KUBERNETES_SERVICE_HOST !== undefined,
      kubeconfigPath: values.KUBECONFIG,
      namespace: values.POD_NAMESPACE,
      podName: values.POD_NAME,
    },
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    shutdownDrainMs: values.SHUTDOWN_DRAIN_MS,
    instanceId: values.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    embeddedDatabase: values.DATABASE_URL === undefined,
    geolocation: {
      accountId: values.GEOLITE_ACCOUNT_ID,
      licenseKey: values.GEOLITE_LICENSE_KEY,
      serviceUrl: values.GEOLITE_URL.replace(/\/+$/, ''),
      databasePath: values.GEOLITE_DB_PATH,
    },
    backup: {
      dir: path.resolve(values.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      s3: values.BACKUP_S3_BUCKET
        ? {
            endpoint: values.BACKUP_S3_ENDPOINT,
            bucket: values.BACKUP_S3_BUCKET,
            region: values.BACKUP_S3_REGION,
            accessKeyId: values.BACKUP_S3_ACCESS_KEY_ID,
            secretAccessKey: values.BACKUP_S3_SECRET_ACCESS_KEY,
            prefix: values.BACKUP_S3_PREFIX.replace(/^\/+|\/+$/g, ''),
            forcePathStyle: values.BACKUP_S3_FORCE_PATH_STYLE,
          }
        : undefined,
      uploadMaxBytes: values.BACKUP_UPLOAD_MAX_MB * 1024 * 1024,
      compress: values.BACKUP_COMPRESS,
    },
    webhooks: {
      timeoutMs: values.WEBHOOK_TIMEOUT_MS,
      maxAttempts: values.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: values.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: values.WEBHOOK_RETRY_MAX_MS,
      concurrency: values.WEBHOOK_CONCURRENCY,
      hostConcurrency: values.WEBHOOK_HOST_CONCURRENCY,
      pollIntervalMs: values.WEBHOOK_POLL_INTERVAL_MS,
      leaseMs: values.WEBHOOK_LEASE_MS,
      allowLinkLocal: values.WEBHOOK_ALLOW_LINK_LOCAL,
      maxResponseBytes: values.WEBHOOK_MAX_RESPONSE_BYTES,
      retentionDays: values.WEBHOOK_DELIVERY_RETENTION_DAYS,
    },
  };
}

function definedOnly(values: Partial<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * A secret generated on first start and kept under DATA_DIR, so tokens survive restarts without the
 * operator having to invent one. Replicas must share it: cluster deployments set it explicitly.
 */
export function loadOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
