// Each server is loaded only in the process that runs it.
import { loadContender, parseContenderName } from "./contenders.js";
import type { EchoServer, ServerName } from "./workloads.js";

export async function startNamedServer(name: ServerName): Promise<EchoServer> {
  switch (name) {
    case "dubbo-js":
      return (await import("../provider/dubbo-js-server.js")).startDubboJsServer();
    case "ping-pong":
      return (await import("../provider/ping-pong-server.js")).startPingPongServer();
    default:
      return (await loadContender(name)).startServer();
  }
}

export function parseServerName(value: string | undefined): ServerName {
  if (value === "dubbo-js" || value === "ping-pong") return value;
  return parseContenderName(value);
}
