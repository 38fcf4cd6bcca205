// The lines the extension writes to its "Kube GC Lens" output channel (a LogOutputChannel: the user sets its level),
// and the messages of the report's progress. Pure: tested in test/client without VS Code.

/** "0.42 s", "12 ms". */
export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export interface SimulateTiming {
  /** The object, as the picker or the report names it ("Deployment shop/web"), or its uid when nothing better is known. */
  target: string;
  /** The policy as the user chose it ("default", "Background", …). */
  policy: string;
  /** The live cluster's context, when simulated there. */
  cluster?: string;
  /** From the request to the server's answer (a first request also waits for the workspace to load). */
  answeredMs: number;
  /** From the answer to the report on screen (the first render also starts VS Code's markdown renderer). */
  shownMs: number;
}

/** "Simulate Delete Deployment shop/web (Background): answered in 0.42 s, shown 1.20 s later". */
export function simulateLogText(t: SimulateTiming): string {
  const on = t.cluster !== undefined ? ` on ${t.cluster}` : '';
  return `Simulate Delete ${t.target} (${t.policy})${on}: answered in ${durationText(t.answeredMs)}, shown ${durationText(t.shownMs)} later`;
}

/** "Simulate Removing finalizer F from Kafka kafka/my-cluster on kind-dev: answered in 0.42 s, shown 1.20 s later". */
export function simulateRequestsLogText(t: Omit<SimulateTiming, 'target' | 'policy'> & { subject: string }): string {
  const on = t.cluster !== undefined ? ` on ${t.cluster}` : '';
  return `Simulate ${t.subject}${on}: answered in ${durationText(t.answeredMs)}, shown ${durationText(t.shownMs)} later`;
}

/** The report's progress message while it is computed: what it is waiting for. */
export function simulateProgressMessage(serverState: 'loading' | 'ready' | undefined): string {
  return serverState === 'ready' ? 'simulating…' : 'waiting for the workspace to load, then simulating…';
}

/** An error as one line for the log: the message, and where it came from when known. */
export function errorLogText(what: string, e: unknown): string {
  if (e instanceof Error) return `${what}: ${e.stack ?? e.message}`;
  return `${what}: ${String(e)}`;
}
