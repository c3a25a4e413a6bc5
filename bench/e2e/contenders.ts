// Each contender is loaded only in the processes that run it, so no process carries the others' code.
import type { Contender, ContenderName } from "./workloads.js";

export async function loadContender(name: ContenderName): Promise<Contender> {
  switch (name) {
    case "dubbo-ts":
      return (await import("./dubbo-contender.js")).dubboContender;
    case "net":
      return (await import("./net-contender.js")).netContender;
  }
}

export function parseContenderName(value: string | undefined): ContenderName {
  if (value === "dubbo-ts" || value === "net") return value;
  throw new Error(`e2e bench: unknown contender "${String(value)}" (expected dubbo-ts or net)`);
}
