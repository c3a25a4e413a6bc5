import type { Logger } from "../core/index.js";

/** What the hook stops: a running application. */
export interface Stoppable {
  readonly name: string;
  readonly logger: Logger;
  stop(): Promise<void>;
}

/** The signals a service manager (systemd, Kubernetes, a terminal's Ctrl-C) stops a process with. */
const SIGNALS = ["SIGTERM", "SIGINT"] as const;
type StopSignal = (typeof SIGNALS)[number];

// Signals belong to the process, so this is the one piece of process-wide state: every running
// application with the hook on, as Java's single DubboShutdownHook destroys every registry and
// protocol of the JVM.
const running = new Set<Stoppable>();
let stopping: Promise<void> | undefined;

/**
 * Stops `app` gracefully on SIGTERM and SIGINT (Java's shutdown hook): unregister, READONLY to
 * consumers, drain in-flight calls, release registries and protocols; every registered application
 * of the process stops together. Then, if no other listener of that signal exists (so ours replaced
 * Node's default of exiting), the process exits by the same signal; when the program has its own
 * listener, it decides when to exit. A second signal during the stop exits at once. Returns the
 * function that removes `app` (called when the application stops by itself).
 */
export function stopOnSignals(app: Stoppable): () => void {
  if (running.size === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  running.add(app);
  return () => {
    running.delete(app);
    if (running.size === 0 && stopping === undefined) removeListeners();
  };
}

function removeListeners(): void {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
}

function onSignal(signal: StopSignal): void {
  const ownsExit = process.listenerCount(signal) === 1;
  if (stopping !== undefined) {
    if (ownsExit) exitBy(signal);
    return;
  }
  const apps = [...running];
  for (const app of apps) {
    app.logger.info(
      `${signal}: stopping application ${app.name} (unregister, READONLY, drain in-flight calls)` +
        (ownsExit ? "; the process exits when done, a second signal exits at once" : ""),
    );
  }
  stopping = Promise.allSettled(apps.map((app) => app.stop())).then(() => {
    stopping = undefined;
    for (const app of apps) app.logger.info(`${signal}: application ${app.name} stopped`);
    if (ownsExit && process.listenerCount(signal) <= 1) exitBy(signal);
    else if (running.size === 0) removeListeners();
  });
}

/** Dies of `signal` as the process would have without us (exit status 128 + signal number). */
function exitBy(signal: StopSignal): void {
  removeListeners();
  process.kill(process.pid, signal);
}
