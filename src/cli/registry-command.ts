// `dubbo-ts registry`: the embedded dubbo:// registry as a process of its own.
import { DEFAULT_DUBBO_REGISTRY_PORT, DEFAULT_EMBEDDED_REGISTRY_LEASE_MS } from "../core/index.js";
import { startEmbeddedRegistry } from "../registry/dubbo/index.js";
import { integerFlag, parseFlags, UsageError } from "./flags.js";
import { untilStopped } from "./until-stopped.js";

const REGISTRY_USAGE = `usage: dubbo-ts registry [--host 127.0.0.1] [--port ${DEFAULT_DUBBO_REGISTRY_PORT}] [--recovery ${DEFAULT_EMBEDDED_REGISTRY_LEASE_MS}]

Runs the embedded dubbo:// registry until SIGINT or SIGTERM. Providers and consumers use the
address it prints as their registry address.

  --host      address to listen on and to advertise (default 127.0.0.1)
  --port      port to listen on; 0 picks a free one (default ${DEFAULT_DUBBO_REGISTRY_PORT})
  --recovery  ms a restarted registry waits for its clients to register again (default ${DEFAULT_EMBEDDED_REGISTRY_LEASE_MS})
`;

/** Why a listen failed, in the words of the flag that fixes it. */
function listenHint(error: unknown): string | undefined {
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  if (code === "EADDRINUSE") return "the port is in use; choose another --port (0 picks a free one)";
  if (code === "EACCES") return "no permission to listen on that port; choose a --port above 1023";
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return "that address is not one of this machine's; change --host";
  }
  return undefined;
}

/** Runs the registry until a signal stops it; resolves with the exit code. */
export async function runRegistryCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, ["host", "port", "recovery"], "registry");
  if (flags.has("help")) {
    process.stdout.write(REGISTRY_USAGE);
    return 0;
  }
  const host = flags.get("host") ?? "127.0.0.1";
  const port = integerFlag(flags, "port", DEFAULT_DUBBO_REGISTRY_PORT, {
    min: 0,
    max: 65535,
    what: "a port",
  });
  const recoveryMs = integerFlag(flags, "recovery", DEFAULT_EMBEDDED_REGISTRY_LEASE_MS, {
    min: 0,
    max: 2_147_483_647,
    what: "a number of ms",
  });
  const server = await startEmbeddedRegistry({ host, port, recoveryMs }).catch((error: unknown) => {
    const hint = listenHint(error);
    if (hint === undefined) throw error;
    throw new UsageError(`cannot listen on ${host}:${port}: ${hint}`);
  });
  process.stdout.write(
    `dubbo-ts embedded registry listening on ${server.url.toString()} (registry address for providers and consumers)\n`,
  );
  await untilStopped();
  await server.stop();
  process.stdout.write("dubbo-ts embedded registry stopped\n");
  return 0;
}
