// Idle connections at scale: the heap N idle, heartbeating connections hold (both ends in one
// process; see idle-connections-child.ts).
import { runGcChild } from "./gc-child.js";

interface IdleFigures {
  readonly count: number;
  readonly connectedMs: number;
  readonly perConnectionUp: number;
  readonly perConnectionAfterHeartbeats: number;
}

function runChild(count: number): Promise<IdleFigures> {
  return runGcChild<IdleFigures>("idle-connections-child.ts", [String(count)]);
}

export async function runIdleConnectionsBench(options: { count: number; rounds: number }): Promise<void> {
  console.log(`idle connections: ${options.count} held, heartbeats every 2 s (both ends in one process)`);
  for (let round = 1; round <= options.rounds; round++) {
    // A burst of N connects can overflow the provider's accept queue (issue 14): report, go on.
    const f = await runChild(options.count).catch((error: unknown) => {
      console.log(`  round ${round}: failed (${(error as Error).message}; see the child's output above)`);
      return undefined;
    });
    if (f === undefined) continue;
    const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
    console.log(
      `  round ${round}: all up in ${f.connectedMs.toFixed(0)} ms; heap per connection (both ends) ${kib(f.perConnectionUp)}, ` +
        `after 3 heartbeat periods ${kib(f.perConnectionAfterHeartbeats)}`,
    );
  }
}
