// Configuration from environment and flags, validated once at start-up; flags win over env.
import { z } from 'zod';
import { ListingsError } from './errors.ts';
import { isOtherUrl, isPostgresUrl } from './store/pg/location.ts';
import { KEY_PREFIX_PATTERN } from './domain/keys.ts';
import { jsonPath } from './schemas/import.ts';
import { parseTrustedProxies } from './http/transport/client-address.ts';

export const Config = z.object({
  db: z
    .string()
    .min(1, 'must not be empty')
    .refine((v) => !isOtherUrl(v), 'must be a SQLite file path or a postgres:// URL'),
  host: z.string().min(1, 'must not be empty'),
  port: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0-65535')
    .max(65535, 'must be 0-65535'),
  publicUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  keyPrefix: z.string().regex(KEY_PREFIX_PATTERN, 'must be 1-16 characters of a-z and 0-9, starting with a letter'),
  trustProxy: z.string().transform((text, ctx) => {
    try {
      return parseTrustedProxies(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),
});
export type Config = Required<z.infer<typeof Config>>;
export type Setting = keyof Config;

export const ENV_NAMES: Record<Setting, string> = {
  db: 'LISTINGS_DB',
  host: 'HOST',
  port: 'PORT',
  publicUrl: 'PUBLIC_URL',
  keyPrefix: 'KEY_PREFIX',
  trustProxy: 'TRUST_PROXY',
};

/** The value of each setting nobody gave; PUBLIC_URL's is made from HOST and PORT. */
export const DEFAULTS = {
  db: './data/listings.db',
  host: '127.0.0.1',
  port: 8787,
  keyPrefix: 'svc',
  trustProxy: '',
} as const;

export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.LISTINGS_DB || DEFAULTS.db;
}

/** What is wrong with one setting's value (the rule it breaks), or undefined when it is valid. */
export function settingProblem(name: Setting, value: string): string | undefined {
  const parsed = Config.shape[name].safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]!.message;
}

/** Merges flags over env over defaults; throws a ListingsError naming the setting and the rule. An empty value is unset. */
export function loadConfig(
  flags: Partial<Record<Setting, string | number | undefined>>,
  env: NodeJS.ProcessEnv = process.env,
): Config {
  const pick = (k: Setting) => (flags[k] === '' ? undefined : flags[k]) ?? (env[ENV_NAMES[k]] || undefined);
  const parsed = Config.safeParse({
    db: pick('db') ?? DEFAULTS.db,
    host: pick('host') ?? DEFAULTS.host,
    port: pick('port') ?? DEFAULTS.port,
    publicUrl: pick('publicUrl'),
    keyPrefix: pick('keyPrefix') ?? DEFAULTS.keyPrefix,
    trustProxy: pick('trustProxy') ?? DEFAULTS.trustProxy,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? '') as Setting;
    throw new ListingsError(
      'invalid_config',
      `${ENV_NAMES[name] ?? jsonPath(issue.path)} (--${flagName(name)}): ${issue.message}`,
    );
  }
  const c = parsed.data;
  return { ...c, publicUrl: (c.publicUrl ?? defaultPublicUrl(c.host, c.port)).replace(/\/+$/, '') };
}

const defaultPublicUrl = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The config once the server listens on `port`: asked for any port (0), a public URL made from HOST and PORT names the
 * port it got, so that rent links, redirects and the OpenAPI servers reach it.
 */
export function boundTo(config: Config, port: number): Config {
  return config.port === 0 && config.publicUrl === defaultPublicUrl(config.host, 0)
    ? { ...config, port, publicUrl: defaultPublicUrl(config.host, port) }
    : config;
}

/**
 * Nodes on one PostgreSQL database sit behind one load balancer: each must build the same rent links, or their bodies
 * and ETags differ and a poller's If-None-Match from one node gets a 200 from the next. A node's own address (the
 * default) differs from node to node, so `serve` there needs PUBLIC_URL.
 */
export function requireSharedPublicUrl(db: string, publicUrl: string | undefined): void {
  if (isPostgresUrl(db) && !publicUrl)
    throw new ListingsError(
      'invalid_config',
      `${ENV_NAMES.publicUrl} (--${flagName('publicUrl')}): must be set when ${ENV_NAMES.db} is a postgres:// URL, ` +
        'to the address partners reach every node at, so that all nodes answer the same bytes',
    );
}

function flagName(k: Setting): string {
  return k.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);
}
