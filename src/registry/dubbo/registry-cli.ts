import {
  Code,
  DEFAULT_DUBBO_REGISTRY_PORT,
  DEFAULT_EMBEDDED_REGISTRY_LEASE_MS,
  RpcError,
} from "../../core/index.js";
import { type EmbeddedRegistryServer, startEmbeddedRegistry } from "./embedded-registry-server.js";

const USAGE = `usage: dubbo-ts registry [--host 127.0.0.1] [--port ${DEFAULT_DUBBO_REGISTRY_PORT}] [--recovery <ms>]`;

function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(`--${name}`);
  if (at >= 0) return argv[at + 1];
  const inline = argv.find((a) => a.startsWith(`--${name}=`));
  return inline?.slice(name.length + 3);
}

function port(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new RpcError(`--${name} ${value} is not a port or a number of ms (${USAGE})`, Code.InvalidArgument);
  }
  return n;
}

/**
 * `dubbo-ts registry --port N`: runs the embedded registry until SIGINT/SIGTERM, then stops it.
 * Resolves with the running server (the signal handlers stop it; callers may too).
 */
export async function runRegistryCli(argv: readonly string[]): Promise<EmbeddedRegistryServer> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
  }
  const server = await startEmbeddedRegistry({
    host: option(argv, "host") ?? "127.0.0.1",
    port: port(option(argv, "port"), DEFAULT_DUBBO_REGISTRY_PORT, "port"),
    recoveryMs: port(option(argv, "recovery"), DEFAULT_EMBEDDED_REGISTRY_LEASE_MS, "recovery"),
  });
  process.stdout.write(
    `dubbo-ts embedded registry listening on ${server.url.toString()} (registry address for providers and consumers)\n`,
  );
  const stop = (): void => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    void server.stop().then(() => process.stdout.write("dubbo-ts embedded registry stopped\n"));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return server;
}
