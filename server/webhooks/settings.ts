// The development setting that lets webhooks reach loopback and private addresses (a receiver on this machine).
import { switchOf } from '../switch-setting.ts';

const ALLOW_PRIVATE_ENV = 'WEBHOOKS_ALLOW_PRIVATE';

/** The flag, else WEBHOOKS_ALLOW_PRIVATE as every on/off variable is read (a value neither on nor off refused). */
export function allowPrivateOf(env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  return flag === true || switchOf(env, ALLOW_PRIVATE_ENV);
}
