/**
 * One echo server, run as its own process by bench/e2e.ts and bench/provider.ts:
 * `node --import tsx bench/e2e-server.ts <dubbo-ts|net|dubbo-js|ping-pong>`. Reports its port over
 * IPC, meters its own cost between the driver's meter-start and meter-stop, and stops when the
 * driver disconnects or on SIGTERM.
 */
import { type CostMeter, startCostMeter } from "./e2e/measure.js";
import type { ChildMessage, MeterCommand } from "./e2e/messages.js";
import { parseServerName, startNamedServer } from "./e2e/servers.js";
import { requireCompiledPackage } from "./e2e/workloads.js";

function send(message: ChildMessage): void {
  process.send?.(message);
}

requireCompiledPackage();
try {
  const server = await startNamedServer(parseServerName(process.argv[2]));
  let meter: CostMeter | undefined;
  process.on("message", (command: MeterCommand) => {
    if (command.type === "meter-start") {
      meter = startCostMeter();
      send({ type: "metering" });
    } else if (meter !== undefined) {
      send({ type: "cost", cost: meter.stop() });
      meter = undefined;
    }
  });
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on("disconnect", () => void stop());
  process.on("SIGTERM", () => void stop());
  send({ type: "ready", port: server.port });
} catch (error) {
  send({ type: "error", message: String((error as Error)?.stack ?? error) });
  process.exit(1);
}
