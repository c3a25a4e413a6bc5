/**
 * One contender's client, run as its own process by bench/e2e.ts:
 * `node --import tsx bench/e2e-client.ts <dubbo-ts|net|grpc-js> <port>`. Holds one connection and
 * runs each closed-loop cell the driver asks for, answering with the measured stats.
 */
import { runClosedLoop } from "./e2e/closed-loop.js";
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import type { ChildMessage, RunCell } from "./e2e/messages.js";
import {
  checkEcho,
  type EchoClient,
  TEXT_PAYLOAD,
  USER_PAYLOAD,
  type WorkloadName,
} from "./e2e/workloads.js";

function send(message: ChildMessage): void {
  process.send?.(message);
}

function callFor(client: EchoClient, workload: WorkloadName): () => Promise<unknown> {
  return workload === "text" ? () => client.echoText(TEXT_PAYLOAD) : () => client.echoUser(USER_PAYLOAD);
}

const contender = await loadContender(parseContenderName(process.argv[2]));
const port = Number(process.argv[3]);
try {
  const client = await contender.connect(port);
  // A fast wrong answer must not count: check one echo of each workload before measuring.
  checkEcho("text", TEXT_PAYLOAD, await client.echoText(TEXT_PAYLOAD));
  checkEcho("user", USER_PAYLOAD, await client.echoUser(USER_PAYLOAD));
  process.on("message", (message: RunCell) => {
    runClosedLoop(
      callFor(client, message.workload),
      message.concurrency,
      message.warmupMs,
      message.durationMs,
    )
      .then((stats) => send({ type: "result", stats }))
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
