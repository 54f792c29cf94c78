// The demo's operator panel: a demo owner account whose password sits in data/ beside the demo keys, and the panel
// listening beside the demo's API.
import { existsSync, readFileSync } from 'node:fs';
import { randomAlphanumeric } from '../server/domain/keys.ts';
import { hashPassword, verifyPassword } from '../server/domain/passwords.ts';
import { startPanel, type RunningPanel } from '../server/panel/server.ts';
import type { PanelSnapshots } from '../server/panel/snapshots.ts';
import type { Store } from '../server/store/store.ts';
import type { Logger } from '../server/logger.ts';
import { writeOwnerOnly } from './demo-site.ts';

export const DEMO_OPERATOR_EMAIL = 'demo@example.com';

/** data/demo-operator.json: how to log in to the demo's panel. Owner-only (0600), as demo-keys.json. */
export interface DemoOperatorFile {
  email: string;
  password: string;
  panel_url: string;
}

/** What ensureDemoOperator did: `reused` keeps the file's password, `created` and `reset` wrote a new one. */
export type DemoOperatorOutcome = 'created' | 'reused' | 'reset';

/**
 * The demo owner: created on the first start; on later starts reused while the file's password still logs it in, and
 * given a new password (written to the file) when the file is gone or the password was changed (`operators passwd`).
 */
export async function ensureDemoOperator(
  store: Store,
  file: string,
  panelUrl: string,
): Promise<{ login: DemoOperatorFile; outcome: DemoOperatorOutcome }> {
  const email = DEMO_OPERATOR_EMAIL;
  const row = await store.operator('email', email);
  const kept = readOperatorFile(file);
  let outcome: DemoOperatorOutcome;
  let password: string;
  if (row && kept && (await verifyPassword(kept.password, row.password_hash))) {
    outcome = 'reused';
    password = kept.password;
  } else {
    password = randomAlphanumeric(20);
    const hash = await hashPassword(password);
    if (row) {
      await store.setOperatorPassword(email, hash);
      outcome = 'reset';
    } else {
      await store.addOperator(email, hash, 'owner');
      outcome = 'created';
    }
  }
  const login: DemoOperatorFile = { email, password, panel_url: panelUrl };
  writeOwnerOnly(file, login);
  return { login, outcome };
}

/** The file as a previous start wrote it, or undefined when it is missing or not ours. */
function readOperatorFile(file: string): DemoOperatorFile | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoOperatorFile>;
    return typeof parsed.password === 'string' ? (parsed as DemoOperatorFile) : undefined;
  } catch {
    return undefined;
  }
}

/** PANEL_PORT (--panel-port) when given; else the port after the API's (8788 beside 8787), or any free one beside port 0. */
export function demoPanelPort(apiPort: number, panelPort: number | ''): number {
  if (panelPort !== '') return panelPort;
  return apiPort === 0 ? 0 : apiPort + 1;
}

/** The panel over the demo's store, its embed snippets and photos pointing at the demo's API. */
export async function startDemoPanel(
  store: Store,
  opts: {
    host: string;
    port: number;
    publicUrl: string;
    keyPrefix: string;
    logger: Logger;
    snapshots?: PanelSnapshots;
  },
): Promise<RunningPanel> {
  return startPanel({ store, ...opts, portOption: '--panel-port/PANEL_PORT' });
}
