import net from 'node:net';
import { z } from 'zod';

/** Roles a process can run. A single-node install runs all of them in one process. */
export const ROLE_NAMES = ['api', 'scheduler', 'dispatcher', 'operator'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .min(1)
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    )
    .optional();

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be true or false',
  })
  .transform((value) => ['true', '1', 'yes', 'on'].includes(value));

/**
 * Every environment variable Reelstat reads, with its default. docs/configuration.md documents each one;
 * a test keeps the two in step. Each variable may instead be given as <NAME>_FILE (a path whose content is
 * the value), for secrets mounted from files.
 */
export const envSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  TRUST_PROXY: z
    .string()
    .trim()
    .default('')
    .refine(
      isTrustProxyValue,
      'must be a number of proxy hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal',
    ),
  HTTP_MAX_SOCKETS_PER_CLIENT: z.coerce.number({ error: 'must be a number' }).int().min(1).max(10_000).default(64),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_POSTGRES_SHARED_BUFFERS: z
    .string()
    .trim()
    .regex(/^(auto|[1-9][0-9]{0,6}(kB|MB|GB))$/, 'must be auto or a size such as 512MB or 2GB')
    .default('auto'),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  REDIS_KEY_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1-40 letters, digits, dots, dashes or underscores')
    .default('reelstat'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_TTL_HOURS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(8760).default(1),
  TOKEN_RENEW_MAX_HOURS: z.coerce.number({ error: 'must be a number' }).int().min(1).max(87_600).default(168),
  LOGIN_MAX_FAILURES: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1000).default(5),
  LOGIN_LOCKOUT_MINUTES: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1440).default(15),
  // OpenID Connect sign-in (docs/security.md): on when OIDC_ISSUER and OIDC_CLIENT_ID are set.
  OIDC_ISSUER: optionalUrl(['https:', 'http:']),
  OIDC_CLIENT_ID: z.string().trim().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_LABEL: z.string().trim().min(1).max(60).default('OpenID Connect'),
  OIDC_SCOPES: z
    .string()
    .trim()
    .default('openid profile email groups')
    .refine((value) => value.split(/\s+/).includes('openid'), 'must include openid'),
  OIDC_ADMIN_GROUPS: z.string().trim().max(2000).default(''),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).max(100).default('groups'),
  OIDC_USERNAME_CLAIM: z.string().trim().min(1).max(100).default('preferred_username'),
  OIDC_LINK_CLAIM: z.string().trim().min(1).max(100).default('preferred_username'),
  OIDC_REDIRECT_URL: optionalUrl(['https:', 'http:']),
  ADMIN_USERNAME: z.string().trim().min(1).max(100).optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  MEDIA_SERVER_URL: optionalUrl(['http:', 'https:']),
  MEDIA_SERVER_API_KEY: z.string().trim().min(1).optional(),
  UPDATE_CHECK_URL: z
    .string()
    .trim()
    .default('https://api.github.com/repos/reelstat/reelstat/releases/latest')
    .refine((value) => value === '' || /^https?:\/\//.test(value), 'must be an http(s) URL, or empty to turn update checks off'),
  BASE_URL: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || /^\/[A-Za-z0-9._~\-/]*$/.test(value), 'must be a path such as /reelstat')
    .transform((value) => value.replace(/\/+$/, '')),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty'], { error: 'must be auto, json or pretty' }).default('auto'),
  TZ: z.string().trim().min(1).refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Paris').default('UTC'),
  ROLES: z
    .string()
    .trim()
    .default(ROLE_NAMES.join(','))
    .transform((value) =>
      value
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ROLE_NAMES, { error: `each role must be one of ${ROLE_NAMES.join(', ')}` })).min(1, 'must name at least one role'))
    .transform((roles) => [...new Set(roles)]),
  METRICS_ENABLED: booleanText.default(true),
  METRICS_PUBLIC: booleanText.default(true),
  LEADER_ELECTION: z.enum(['auto', 'postgres', 'lease', 'none'], { error: 'must be auto, postgres, lease or none' }).default('auto'),
  LEADER_LOCK_RENEW_MS: z.coerce.number().int().min(200).max(60_000).default(2000),
  LEADER_LEASE_DURATION_MS: z.coerce.number().int().min(500).max(300_000).default(15_000),
  LEADER_LEASE_RENEW_DEADLINE_MS: z.coerce.number().int().min(300).max(300_000).default(10_000),
  LEADER_LEASE_RETRY_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  KUBECONFIG: z.string().trim().min(1).optional(),
  KUBERNETES_SERVICE_HOST: z.string().trim().min(1).optional(),
  POD_NAME: z.string().trim().min(1).max(253).optional(),
  POD_NAMESPACE: z
    .string()
    .trim()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a Kubernetes namespace name')
    .optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  INSTANCE_ID: z.string().trim().min(1).optional(),
  GEOLITE_ACCOUNT_ID: z
    .string()
    .trim()
    .regex(/^[0-9]{1,12}$/, 'must be the numeric MaxMind account id')
    .optional(),
  GEOLITE_LICENSE_KEY: z.string().trim().min(1).max(200).optional(),
  GEOLITE_URL: z
    .string()
    .trim()
    .default('https://geolite.info/geoip/v2.1/city')
    .refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL'),
  GEOLITE_DB_PATH: z.string().trim().min(1).optional(),
  BACKUP_DIR: z.string().trim().min(1).optional(),
  BACKUP_S3_ENDPOINT: optionalUrl(['http:', 'https:']),
  BACKUP_S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lowercase letters, digits, dots, dashes)')
    .optional(),
  BACKUP_S3_REGION: z.string().trim().min(1).default('us-east-1'),
  BACKUP_S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  BACKUP_S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
  BACKUP_S3_PREFIX: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || /^[A-Za-z0-9._\-/]+$/.test(value), 'must be letters, digits, dots, dashes, underscores or slashes'),
  BACKUP_S3_FORCE_PATH_STYLE: booleanText.default(false),
  BACKUP_UPLOAD_MAX_MB: z.coerce.number({ error: 'must be a number' }).int().min(1).max(1_048_576).default(2048),
  BACKUP_COMPRESS: booleanText.default(false),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).max(86_400_000).default(3_600_000),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(32),
  WEBHOOK_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(8),
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WEBHOOK_LEASE_MS: z.coerce.number().int().min(300).max(600_000).default(30_000),
  WEBHOOK_ALLOW_LINK_LOCAL: booleanText.default(false),
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce.number().int().min(0).max(10_000_000).default(65_536),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export type EnvInput = z.input<typeof envSchema>;
export type Env = z.output<typeof envSchema>;

/** Express "trust proxy" values we accept: never `true` (trust everyone: any client could pick its address). */
function isTrustProxyValue(value: string): boolean {
  if (value === '' || /^\d{1,2}$/.test(value)) return true;
  return value.split(',').every((part) => {
    const entry = part.trim();
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [address, prefix, ...rest] = entry.split('/');
    if (rest.length > 0 || !address || net.isIP(address) === 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (net.isIP(address) === 4 ? 32 : 128));
  });
}

function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
