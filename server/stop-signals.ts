// The signals that stop a server gracefully, in every process that serves (serve, its workers, panel).
/**
 * SIGTERM (systemd, docker stop), SIGINT (Ctrl-C) and SIGHUP (the terminal or SSH session it ran in closed, or an
 * operator's `kill -HUP`): each finishes in-flight requests and writes last use and clicks before the exit. Without a
 * listener SIGHUP would end the process at once and lose what was counted since the last write.
 */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** Calls `stop` on each stop signal until the returned function is called. */
export function onStopSignals(stop: () => void): () => void {
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  };
}
