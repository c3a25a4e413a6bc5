// Each contender is loaded only in the processes that run it, so no process carries the others' code.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Contender, ContenderName } from "./workloads.js";

export async function loadContender(name: ContenderName): Promise<Contender> {
  switch (name) {
    case "dubbo-ts":
      return (await import("./dubbo-contender.js")).dubboContender("dubbo");
    case "net":
      return (await import("./net-contender.js")).netContender;
    case "tri":
      return (await import("./dubbo-contender.js")).dubboContender("tri");
    case "grpc-js":
      return (await import("./grpc-js-contender.js")).grpcJsContender;
    case "http2":
      return (await import("./http2-contender.js")).http2Contender(undefined);
    case "http2-als":
      return (await import("./http2-contender.js")).http2Contender(new AsyncLocalStorage());
  }
}

export function parseContenderName(value: string | undefined): ContenderName {
  const names: readonly string[] = ["dubbo-ts", "net", "tri", "grpc-js", "http2", "http2-als"];
  if (value !== undefined && names.includes(value)) return value as ContenderName;
  throw new Error(
    `e2e bench: unknown contender "${String(value)}" (expected dubbo-ts, net, tri, grpc-js, http2 or http2-als)`,
  );
}
