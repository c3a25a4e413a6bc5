// dubbo-ts as an application uses it, through the compiled package's public API: createDubbo,
// export on a free port, refer by url (cluster, directory, routers, load balance, mock and the
// default filters all in the path), one connection, and the call's `trace` attachment set in
// runWithRpcContext as application code sets it. Over dubbo or Triple (wrapper mode): only the
// protocol differs, so the e2e and triple benches' figures compare.
import { createDubbo, runWithRpcContext, silentLogger } from "dubbo-ts";
import {
  type BenchUser,
  type Contender,
  type EchoClient,
  type EchoServer,
  EchoService,
} from "./workloads.js";

const quiet = silentLogger;

async function startServer(protocol: "dubbo" | "tri"): Promise<EchoServer> {
  const app = await createDubbo({
    application: { name: "bench-provider" },
    protocol: { name: protocol, host: "127.0.0.1", port: 0 },
    env: false,
    logger: quiet,
  });
  const exported = await app.export(
    EchoService,
    { echoText: (text) => text, echoUser: (user) => user },
    { scope: "remote" },
  );
  return { port: exported.urls[0]!.port, close: () => app.stop() };
}

async function connect(protocol: string, port: number): Promise<EchoClient> {
  const app = await createDubbo({ application: { name: "bench-consumer" }, env: false, logger: quiet });
  const stub = await app.refer(EchoService, { url: `${protocol}://127.0.0.1:${port}`, timeoutMs: 5000 });
  return {
    echoText: (text, trace) =>
      runWithRpcContext((context) => {
        context.setAttachment("trace", trace);
        return stub.echoText(text);
      }),
    echoUser: (user, trace) =>
      runWithRpcContext((context) => {
        context.setAttachment("trace", trace);
        return stub.echoUser(user) as Promise<BenchUser>;
      }),
    close: () => app.stop(),
  };
}

export function dubboContender(protocol: "dubbo" | "tri"): Contender {
  return { startServer: () => startServer(protocol), connect: (port) => connect(protocol, port) };
}
