// The one request <panel-revoke> makes: the revoke form's POST with the session's form token, answered in JSON.

export type RevokeResult = { ok: true; state: string; revoked_at: string } | { ok: false; problem: string };

/** Never throws: a refusal (an expired session, a stale token) or a network failure comes back as its text. */
export async function revokeKey(action: string, csrf: string): Promise<RevokeResult> {
  try {
    const answer = await fetch(action, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf }),
      credentials: 'same-origin',
    });
    if (!answer.ok) return { ok: false, problem: (await answer.text()).trim() || `HTTP ${answer.status}` };
    const { state, revoked_at } = (await answer.json()) as { state: string; revoked_at: string };
    return { ok: true, state, revoked_at };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}
