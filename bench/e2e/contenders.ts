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
  }
}

export function parseContenderName(value: string | undefined): ContenderName {
  if (value === "dubbo-ts" || value === "net" || value === "tri" || value === "grpc-js") return value;
  throw new Error(`e2e bench: unknown contender "${String(value)}" (expected dubbo-ts, net, tri or grpc-js)`);
}
