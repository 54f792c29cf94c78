// The contract's settings as options: each reads its environment variable, shows its default in --help, and checks
// its value by loadConfig's rule, so a bad one is a usage error whether it came from a flag or the environment.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULTS, ENV_NAMES, settingProblem, type Setting } from '../server/config.ts';
import { isOtherUrl } from '../server/store/pg/location.ts';

/** The settings as commands hold them: validated, still as given (loadConfig turns them into a Config). */
export interface Settings {
  db: string;
  keyPrefix: string;
  host: string;
  port: string | number;
  /** '' when unset: loadConfig then makes it from host and port. */
  publicUrl: string;
  trustProxy: string;
}

/** An option's parser that takes an empty value (`PANEL_HOST= listings panel`) as an unset one, as every setting does. */
export function unsetWhenEmpty<T>(parse: (value: string) => T) {
  return (value: string, previous: T): T => (value === '' ? previous : parse(value));
}

function setting(name: Setting, flags: string, description: string): Option {
  return new Option(flags, description).env(ENV_NAMES[name]).argParser((value: string, previous: unknown) => {
    // An empty variable (`HOST= listings serve`) is an unset one.
    if (value === '') return previous;
    // A URL of another scheme is refused where the database is opened, in a line that does not echo its password.
    if (name === 'db' && isOtherUrl(value)) return value;
    const problem = settingProblem(name, value);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
    return value;
  });
}

export const dbOption = () =>
  setting('db', '--db <file|url>', 'SQLite database file, or a postgres:// URL for several API nodes').default(
    DEFAULTS.db,
  );

export const keyPrefixOption = () =>
  setting('keyPrefix', '--key-prefix <prefix>', 'brand prefix of API keys').default(DEFAULTS.keyPrefix);

export const hostOption = () => setting('host', '--host <host>', 'address to listen on').default(DEFAULTS.host);

export const portOption = () => setting('port', '--port <port>', 'port to listen on').default(DEFAULTS.port);

export const publicUrlOption = (description: string) =>
  setting('publicUrl', '--public-url <url>', description).default('', 'http://HOST:PORT');

export const trustProxyOption = () =>
  setting(
    'trustProxy',
    '--trust-proxy <addresses>',
    'comma-separated addresses, CIDR ranges or loopback/linklocal/uniquelocal: the proxies in front, whose X-Forwarded-For names the client',
  ).default(DEFAULTS.trustProxy, 'none');

/**
 * Commander's .env() reads process.env. A preAction hook that reads an Io's own environment (a test's) the same way:
 * each option's variable below its flag and above its default, through the option's parser.
 */
export function readEnvFrom(env: NodeJS.ProcessEnv) {
  return (_program: Command, action: Command) => {
    for (let cmd: Command | null = action; cmd; cmd = cmd.parent) {
      for (const option of cmd.options) {
        const key = option.attributeName();
        const source = cmd.getOptionValueSource(key);
        if (option.envVar === undefined || option.isBoolean() || source === 'cli') continue;
        const value = env[option.envVar];
        if (value !== undefined) cmd.setOptionValueWithSource(key, envValue(cmd, option, value), 'env');
        else if (source === 'env') cmd.setOptionValueWithSource(key, option.defaultValue, 'default');
      }
    }
  };
}

/** A variable's value through its option's parser; a bad one refused as commander refuses it. */
function envValue(cmd: Command, option: Option, value: string): unknown {
  try {
    return option.parseArg ? option.parseArg(value, option.defaultValue) : value;
  } catch (err) {
    if (!(err instanceof InvalidArgumentError)) throw err;
    // A database URL's password is never echoed back.
    const shown = value.replace(/(\/\/[^:/@]*:)[^@/]*@/, '$1***@');
    const message = `error: option '${option.flags}' value '${shown}' from env '${option.envVar}' is invalid.`;
    return cmd.error(`${message} ${err.message}`, { exitCode: err.exitCode, code: err.code });
  }
}
