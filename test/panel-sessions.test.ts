// An operator's sessions end together when asked: a login with "log out my other sessions", the account page's button,
// and a change of password or role (from the panel or the CLI), each audited.
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { bufferIo } from './helpers/fixture.ts';
import { addRoleOperators, emailOf, sessionAs } from './helpers/panel-accounts.ts';
import { OPERATOR, PASSWORD, usePanel } from './helpers/panel.ts';

const panel = usePanel({ prepare: addRoleOperators });
const { client } = panel;

type Session = Awaited<ReturnType<typeof sessionAs>>;
const live = async (s: Session) => (await s.as('GET', '/')).status === 200;
const cli = (args: string[], stdin = '') => runCli(args, bufferIo({ LISTINGS_DB: panel.file }, stdin));

describe('ending the other sessions', () => {
  it('ends them at a login that asks to, and keeps the new one', async () => {
    const [a, b] = [await sessionAs(client, OPERATOR), await sessionAs(client, OPERATOR)];
    const other = await sessionAs(client, emailOf('viewer'));
    const c = await sessionAs(client, OPERATOR, { form: { end_others: 'on' } });
    expect([await live(a), await live(b), await live(c), await live(other)]).toEqual([false, false, true, true]);
    const [login] = await panel.store.listAudit({ action: 'login', actor: OPERATOR, limit: 1 });
    expect(login!.detail).toMatchObject({ ended_others: true, two_factor: false });
    const [ended] = await panel.store.listAudit({ action: 'logout.everywhere', actor: OPERATOR, limit: 1 });
    expect(ended).toMatchObject({ actor: OPERATOR, detail: { operator: OPERATOR } });
    expect(ended!.id).toBeGreaterThan(login!.id);
  });

  it('writes no logout.everywhere row for a login that keeps the other sessions', async () => {
    const before = await panel.store.listAudit({ action: 'logout.everywhere', actor: emailOf('viewer') });
    await sessionAs(client, emailOf('viewer'));
    expect(await panel.store.listAudit({ action: 'logout.everywhere', actor: emailOf('viewer') })).toEqual(before);
  });

  it("ends them from the account page's button", async () => {
    const [a, b] = [await sessionAs(client, OPERATOR), await sessionAs(client, OPERATOR)];
    const page = await b.as('GET', '/account');
    expect(String(page.body)).toMatch(/<form method="post" action="\/account\/sessions">/);
    expect((await b.as('POST', '/account/sessions')).status).toBe(200);
    expect([await live(a), await live(b)]).toEqual([false, true]);
    expect((await panel.store.listAudit({ action: 'logout.everywhere' }))[0]).toMatchObject({ actor: OPERATOR });
  });
});

describe('a change of password or role', () => {
  it("ends the account's sessions when an owner changes its role in the panel, and only its own", async () => {
    const owner = await sessionAs(client, OPERATOR);
    const viewer = await sessionAs(client, emailOf('viewer'));
    const manager = await sessionAs(client, emailOf('manager'));
    const changed = await owner.as('POST', '/operators/role', { email: emailOf('viewer'), role: 'manager' });
    expect(changed.status).toBe(303);
    expect([await live(owner), await live(viewer), await live(manager)]).toEqual([true, false, true]);
    expect((await panel.store.operator('email', emailOf('viewer')))!.role).toBe('manager');
    expect((await panel.store.listAudit({ action: 'operator.role' }))[0]).toMatchObject({
      actor: OPERATOR,
      detail: { operator: emailOf('viewer'), from: 'viewer', to: 'manager' },
    });
    // The same role again changes nothing, and ends nothing.
    const again = await sessionAs(client, emailOf('viewer'));
    await owner.as('POST', '/operators/role', { email: emailOf('viewer'), role: 'manager' });
    expect(await live(again)).toBe(true);
  });

  it('shows a refused role change above the form, on the operators page, and changes nothing', async () => {
    const owner = await sessionAs(client, OPERATOR);
    const before = await panel.store.listOperators();
    for (const form of [
      { email: OPERATOR, role: 'viewer' },
      { email: emailOf('viewer'), role: 'admin' },
      { email: 'nobody@example.com', role: 'manager' },
    ]) {
      await panel.store.setOperatorRole(emailOf('owner'), 'manager', 'test');
      const answer = await owner.as('POST', '/operators/role', form);
      expect({ form, status: answer.status }).toEqual({ form, status: 400 });
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      const body = String(answer.body);
      expect(body).toMatch(/<p class="problems" role="alert">[^<]+<\/p>\s*<div class="scroll"/);
      expect(body).toContain('<nav');
      expect(body).toContain(`<td>${emailOf('viewer')}</td>`);
    }
    expect(await panel.store.listOperators()).toEqual(
      before.map((o) => (o.email === emailOf('owner') ? { ...o, role: 'manager' } : o)),
    );
    expect(await live(owner)).toBe(true);
  });

  it('ends them on operators role and operators passwd from the CLI, and keeps one owner', async () => {
    const manager = await sessionAs(client, emailOf('manager'));
    expect(await cli(['operators', 'role', emailOf('manager'), 'viewer'])).toBe(0);
    expect(await live(manager)).toBe(false);
    const viewer = await sessionAs(client, emailOf('manager'));
    expect((await viewer.as('POST', '/facilities/wro-1/keys', { label: 'x' })).status).toBe(403);

    const owner = await sessionAs(client, OPERATOR);
    expect(await cli(['operators', 'passwd', OPERATOR], `${PASSWORD}\n`)).toBe(0);
    expect(await live(owner)).toBe(false);

    expect(await cli(['operators', 'role', emailOf('owner'), 'manager'])).toBe(0);
    const io = bufferIo({ LISTINGS_DB: panel.file });
    expect(await runCli(['operators', 'role', OPERATOR, 'viewer'], io)).toBe(1);
    expect(io.stderr()).toContain('last owner');
    expect(await cli(['operators', 'role', OPERATOR, 'admin'])).toBe(2);
  });

  it('makes the first operator an owner and a later one what --role says, a viewer by default', async () => {
    const fresh = `${panel.file}.fresh.db`;
    const add = (email: string, extra: string[] = []) =>
      runCli(['operators', 'add', email, ...extra, '--json'], bufferIo({ LISTINGS_DB: fresh }, `${PASSWORD}\n`));
    expect(await runCli(['db', 'migrate'], bufferIo({ LISTINGS_DB: fresh }))).toBe(0);
    expect(await add('first@example.com', ['--role', 'viewer'])).toBe(1);
    expect(await add('first@example.com')).toBe(0);
    expect(await add('second@example.com')).toBe(0);
    expect(await add('third@example.com', ['--role', 'manager'])).toBe(0);
    const io = bufferIo({ LISTINGS_DB: fresh });
    await runCli(['operators', 'list', '--json'], io);
    const roles = (JSON.parse(io.stdout()) as { email: string; role: string }[]).map((o) => [o.email, o.role]);
    expect(roles).toEqual([
      ['first@example.com', 'owner'],
      ['second@example.com', 'viewer'],
      ['third@example.com', 'manager'],
    ]);
  });
});
