// Panel accounts in tests: operators of each role, a login as any of them (with a two-factor code when it has one), and
// a clock that tests move by whole TOTP time steps instead of waiting.
import { expect } from 'vitest';
import { hashPassword } from '../../server/domain/passwords.ts';
import type { Role } from '../../server/domain/roles.ts';
import { totpCodeAt, TOTP_PERIOD } from '../../server/domain/totp.ts';
import type { Answer } from '../../server/http/transport/answer.ts';
import type { Store } from '../../server/store/store.ts';
import { PASSWORD, type panelClient } from './panel.ts';

export const emailOf = (role: Role) => `${role}@example.com`;

/** A manager and a viewer beside the store's first operator (an owner), all with PASSWORD. */
export async function addRoleOperators(store: Store): Promise<void> {
  const hash = await hashPassword(PASSWORD);
  await store.addOperator(emailOf('owner'), hash, 'owner');
  await store.addOperator(emailOf('manager'), hash, 'manager');
  await store.addOperator(emailOf('viewer'), hash, 'viewer');
}

/** A clock at a fixed instant, moved on by whole time steps: codes of a step stay codes of that step. */
export function stepClock(start = Date.parse('2026-03-02T10:00:00.000Z')) {
  let now = start;
  return {
    now: () => now,
    step: (n = 1) => {
      now += n * TOTP_PERIOD * 1000;
    },
  };
}

export const cookieOf = (answer: Answer) => answer.headers['set-cookie']!.split(';')[0]!;

/** A logged-in session of `email`: its cookie, its form token (read from `page`), and requests made with both. */
export async function sessionAs(
  client: ReturnType<typeof panelClient>,
  email: string,
  opts: { page?: string; secret?: string; nowMs?: number; form?: Record<string, string> } = {},
) {
  const { request } = client;
  let answer = await request('POST', '/login', { form: { email, password: PASSWORD, ...opts.form } });
  expect(answer.status).toBe(303);
  if (answer.headers.location === '/login/code') {
    const pending = cookieOf(answer);
    const code = totpCodeAt(opts.secret!, opts.nowMs!);
    answer = await request('POST', '/login/code', { form: { code }, headers: { cookie: pending } });
    expect(answer.status).toBe(303);
  }
  const cookie = cookieOf(answer);
  const page = String((await request('GET', opts.page ?? '/account', { headers: { cookie } })).body);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const as = (method: string, url: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    request(method, url, { headers: { cookie, ...headers }, ...(method === 'GET' ? {} : { form: { csrf, ...form } }) });
  return { cookie, csrf, as, landing: answer.headers.location };
}

/** An import form as a browser sends it: the form token and one file. */
export function multipart(csrf: string, name: string, content: string): { body: Buffer; type: string } {
  const b = 'panelboundary42';
  const body = [
    `--${b}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${csrf}\r\n`,
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/json\r\n\r\n${content}\r\n`,
    `--${b}--\r\n`,
  ].join('');
  return { body: Buffer.from(body), type: `multipart/form-data; boundary=${b}` };
}
