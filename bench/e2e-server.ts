/**
 * One contender's echo server, run as its own process by bench/e2e.ts:
 * `node --import tsx bench/e2e-server.ts <dubbo-ts|net|grpc-js>`. Reports its port over IPC and
 * stops when the driver disconnects or on SIGTERM.
 */
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import type { ChildMessage } from "./e2e/messages.js";

function send(message: ChildMessage): void {
  process.send?.(message);
}

const contender = await loadContender(parseContenderName(process.argv[2]));
try {
  const server = await contender.startServer();
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
