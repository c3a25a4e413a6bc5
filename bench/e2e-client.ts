/**
 * One contender's client, run as its own process by bench/e2e.ts:
 * `node --import tsx bench/e2e-client.ts <dubbo-ts|net> <port>`. Holds one connection and runs
 * each closed-loop cell the driver asks for, answering with the stats and this process's cost.
 */
import { runClosedLoop } from "./e2e/closed-loop.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import { startCostMeter } from "./e2e/measure.js";
import type { ChildMessage, RunCell } from "./e2e/messages.js";
import {
  checkEcho,
  type EchoClient,
  requireCompiledPackage,
  textFor,
  traceFor,
  userFor,
  type WorkloadName,
} from "./e2e/workloads.js";

function send(message: ChildMessage): void {
  process.send?.(message);
}

function callFor(client: EchoClient, workload: WorkloadName): (n: number) => Promise<unknown> {
  return workload === "text"
    ? (n) => client.echoText(textFor(n), traceFor(n))
    : (n) => client.echoUser(userFor(n), traceFor(n));
}

async function run(client: EchoClient, cell: RunCell): Promise<ChildMessage> {
  const meter = startCostMeter();
  const stats = await runClosedLoop(callFor(client, cell.workload), cell.concurrency, cell.durationMs);
  return { type: "result", stats, cost: meter.stop() };
}

requireCompiledPackage();
const contender = await loadContender(parseContenderName(process.argv[2]));
const port = Number(process.argv[3]);
try {
  const client = await contender.connect(port);
  // A fast wrong answer must not count: check one echo of each workload before measuring.
  checkEcho("text", textFor(1), await client.echoText(textFor(1), traceFor(1)));
  checkEcho("user", userFor(1), await client.echoUser(userFor(1), traceFor(1)));
  process.on("message", (cell: RunCell) => {
    run(client, cell)
      .then(send)
      .catch((error: unknown) => send({ type: "error", message: String((error as Error)?.stack ?? error) }));
  });
  process.on("disconnect", () => {
    void client.close().finally(() => process.exit(0));
  });
  send({ type: "ready", port });
} catch (error) {
  send({ type: "error", message: String((error as Error)?.stack ?? error) });
  process.exit(1);
}
