// Each contender is loaded only in the processes that run it, so no process carries the others' code.
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
      return (await import("./http2-contender.js")).http2Contender;
  }
}

export function parseContenderName(value: string | undefined): ContenderName {
  if (value === "dubbo-ts" || value === "net" || value === "tri" || value === "grpc-js" || value === "http2")
    return value;
  throw new Error(
    `e2e bench: unknown contender "${String(value)}" (expected dubbo-ts, net, tri, grpc-js or http2)`,
  );
}
