/**
 * How many promises one end-to-end call creates in the consumer: the figure that sets what
 * `AsyncLocalStorage`'s promise hooks cost a call while an `RpcContext` is in use, and one that
 * holds still on a loaded machine. The provider runs in its own process (bench/e2e-server.ts); this
 * process is the e2e bench's dubbo-ts consumer (createDubbo, refer by url, the `trace` attachment
 * in runWithRpcContext), counting async_hooks PROMISE inits over a loop of calls (the loop's own
 * `await` included). Run against the compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/promises-per-call.ts`.
 */
import { createHook } from "node:async_hooks";
import { startBenchChild } from "./e2e/child.js";
import { dubboContender } from "./e2e/dubbo-contender.js";
import { requireCompiledPackage, textFor, traceFor } from "./e2e/workloads.js";

const CALLS = 2000;

requireCompiledPackage();
const server = startBenchChild("dubbo-ts server", "e2e-server.ts", ["dubbo-ts"]);
try {
  const ready = await server.next(60_000);
  if (ready.type !== "ready") throw new Error(`promises-per-call: the server answered ${ready.type}`);
  const client = await dubboContender("dubbo").connect(ready.port);
  for (let i = 0; i < CALLS; i++) await client.echoText(textFor(i), traceFor(i));
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "PROMISE") promises++;
    },
  });
  hook.enable();
  for (let i = 0; i < CALLS; i++) await client.echoText(textFor(i), traceFor(i));
  hook.disable();
  process.stdout.write(`promises per call in the consumer (1 KB string): ${(promises / CALLS).toFixed(2)}\n`);
  await client.close();
} finally {
  await server.stop();
}
