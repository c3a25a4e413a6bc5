// dubbo-ts as an application uses it: the dubbo protocol wrapped with the default filter chains,
// a typed provider invoker on the server and a typed stub on the client, one shared connection.
import { silentLogger, Url } from "../../src/core/index.js";
import { createFilterExtensionPoint, wrapProtocolWithFilters } from "../../src/filter/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createProviderInvoker, createStub } from "../../src/proxy/index.js";
import type { Logger } from "../../src/transport/index.js";
import {
  type BenchUser,
  type Contender,
  type EchoClient,
  type EchoServer,
  EchoService,
} from "./workloads.js";

const IFACE = EchoService.interfaceName;
const quiet: Logger = silentLogger;

async function startServer(): Promise<EchoServer> {
  const protocol = createDubboProtocol({ logger: quiet, shutdownWaitMs: 1000 });
  const filtered = wrapProtocolWithFilters(protocol, createFilterExtensionPoint());
  const url = Url.parse(
    `dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}&methods=echoText,echoUser&side=provider`,
  );
  const exporter = await filtered.export(
    createProviderInvoker(EchoService, { echoText: (text) => text, echoUser: (user) => user }, url),
  );
  return { port: (exporter as unknown as { url: Url }).url.port, close: () => protocol.destroy() };
}

async function connect(port: number): Promise<EchoClient> {
  const protocol = wrapProtocolWithFilters(
    createDubboProtocol({ logger: quiet }),
    createFilterExtensionPoint(),
  );
  const url = Url.parse(`dubbo://127.0.0.1:${port}/${IFACE}?interface=${IFACE}&timeout=5000`);
  const stub = createStub(EchoService, await protocol.refer(url));
  return {
    echoText: (text) => stub.echoText(text),
    echoUser: (user) => stub.echoUser(user) as Promise<BenchUser>,
    close: () => protocol.destroy(),
  };
}

export const dubboContender: Contender = { startServer, connect };
