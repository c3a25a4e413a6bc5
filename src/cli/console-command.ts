// `dubbo-ts console --registry zookeeper://host:port`: the web console on a port of its own.
import { createServer } from "node:http";
import { consoleLogger, RpcError, Url } from "../core/index.js";
import { CONSOLE_PATH, createConsoleHandler, openRegistryView } from "../qos/index.js";
import { integerFlag, parseFlags, UsageError } from "./flags.js";
import { untilStopped } from "./until-stopped.js";

/** dubbo-admin's port, so an operator's habits carry over. */
const DEFAULT_CONSOLE_PORT = 38080;

const CONSOLE_USAGE = `usage: dubbo-ts console --registry zookeeper://host:port [--port ${DEFAULT_CONSOLE_PORT}] [--host 127.0.0.1] [--metrics host:port,…]

Serves the web console at http://<host>:<port>${CONSOLE_PATH} until SIGINT or SIGTERM: the registry's
services with their providers and consumers, dubbo-admin's override, condition and tag rules
(list, add, remove), and per-method metrics read from the applications' QoS ports.

  --registry  the ZooKeeper registry, as applications give it (zookeeper://host:port?backup=…)
  --port      port to listen on; 0 picks a free one (default ${DEFAULT_CONSOLE_PORT})
  --host      address to listen on (default 127.0.0.1)
  --metrics   QoS ports (host:port, comma-separated) whose /metrics the console shows
`;

async function scrape(address: string): Promise<string> {
  const response = await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(3000) });
  return response.ok ? response.text() : "";
}

export async function runConsoleCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, ["registry", "port", "host", "metrics"], "console");
  if (flags.has("help")) {
    process.stdout.write(CONSOLE_USAGE);
    return 0;
  }
  const address = flags.get("registry");
  if (address === undefined) throw new UsageError("--registry is required: give zookeeper://host:port");
  const port = integerFlag(flags, "port", DEFAULT_CONSOLE_PORT, { min: 0, max: 65535, what: "a port" });
  const host = flags.get("host") ?? "127.0.0.1";
  const qosPorts = (flags.get("metrics") ?? "").split(",").filter((a) => a !== "");
  let registry: Url;
  try {
    registry = Url.parse(address);
  } catch (error) {
    throw new UsageError(`--registry ${address} is not a URL (${String(error)}); give zookeeper://host:port`);
  }
  const view = await openRegistryView(registry, consoleLogger).catch((error: unknown) => {
    throw new UsageError(error instanceof RpcError ? error.rawMessage : String(error));
  });
  const handler = createConsoleHandler({
    registry: async () => view,
    metricsTexts: () => Promise.all(qosPorts.map((a) => scrape(a).catch(() => ""))),
  });
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(new UsageError(`cannot listen on ${host}:${port}: ${error.message}`)),
    );
    server.listen(port, host, resolve);
  }).catch((error: unknown) => {
    view.close();
    throw error;
  });
  const bound = server.address();
  const boundPort = typeof bound === "object" && bound !== null ? bound.port : port;
  process.stdout.write(
    `dubbo-ts console at http://${host}:${boundPort}${CONSOLE_PATH} (registry ${registry.address})\n`,
  );
  await untilStopped();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  view.close();
  process.stdout.write("dubbo-ts console stopped\n");
  return 0;
}
