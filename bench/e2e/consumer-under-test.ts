// The e2e bench's dubbo-ts consumer against the e2e server in its own process, for the tools that
// look inside the consumer (bench/consumer-allocations.ts, bench/consumer-gc.ts): `loop(calls)`
// runs that many calls with `concurrency` callers in a closed loop, every request different.
import { startBenchChild } from "./child.js";
import { dubboContender } from "./dubbo-contender.js";
import { requireCompiledPackage, textFor, traceFor, userFor } from "./workloads.js";

export async function withBenchConsumer(
  tool: string,
  workload: string,
  concurrency: number,
  body: (loop: (calls: number) => Promise<void>) => Promise<void>,
): Promise<void> {
  requireCompiledPackage();
  const server = startBenchChild("dubbo-ts server", "e2e-server.ts", ["dubbo-ts"]);
  try {
    const ready = await server.next(60_000);
    if (ready.type !== "ready") throw new Error(`${tool}: the server answered ${ready.type}`);
    const client = await dubboContender("dubbo").connect(ready.port);
    const call =
      workload === "user"
        ? (n: number) => client.echoUser(userFor(n), traceFor(n))
        : (n: number) => client.echoText(textFor(n), traceFor(n));
    let sequence = 0;
    const loop = async (calls: number): Promise<void> => {
      const until = sequence + calls;
      const caller = async (): Promise<void> => {
        while (sequence < until) await call(sequence++);
      };
      await Promise.all(Array.from({ length: concurrency }, caller));
    };
    await body(loop);
    await client.close();
  } finally {
    await server.stop();
  }
}
