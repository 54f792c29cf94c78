// The development setting that lets webhooks reach loopback and private addresses (a receiver on this machine).
const ALLOW_PRIVATE_ENV = 'WEBHOOKS_ALLOW_PRIVATE';

export function allowPrivateOf(env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  return flag === true || env[ALLOW_PRIVATE_ENV] === '1' || env[ALLOW_PRIVATE_ENV] === 'true';
}
