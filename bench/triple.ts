/**
 * Triple unary benchmark: dubbo-ts's Triple consumer and provider (wrapper mode, public API of the
 * compiled package) against a grpc-js client and server (proto-loader, bench/triple/echo.proto)
 * and a raw node:http2 gRPC-shaped echo (the ceiling, bench/e2e/http2-contender.ts), the same two
 * echo workloads as the e2e bench, every request different, one HTTP/2 connection, each side in
 * its own process, contenders alternating, at least two rounds.
 * Run: `npm run build && npx tsx bench/triple.ts` (flags: bench-options.ts).
 */
import { pathToFileURL } from "node:url";
import { type BenchOptions, benchOptionsFromArgv } from "./bench-options.js";
import { runComparison } from "./e2e/comparison.js";
import { parseContenderName } from "./e2e/contenders.js";

export async function runTripleBench(options: BenchOptions, write = (t: string) => process.stdout.write(t)) {
  await runComparison({
    ...options,
    title: "Triple unary against grpc-js, server and client in separate processes",
    contenders: options.contenders?.map(parseContenderName) ?? ["tri", "grpc-js", "http2"],
    ours: "tri",
    clientScript: "e2e-client.ts",
    ratios: [
      { against: "grpc-js", concurrency: 1, target: 1 },
      { against: "grpc-js", concurrency: 64, target: 2 },
      // Twice grpc-js at 64 calls is about 70 % of what node:http2 itself does on one session.
      { against: "http2", concurrency: 64, target: 0.7 },
    ],
    write,
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runTripleBench(benchOptionsFromArgv(process.argv.slice(2), "triple"));
}
