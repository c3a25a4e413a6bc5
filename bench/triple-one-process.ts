/**
 * One contender's consumer and provider in this one process, 64 calls in flight on one
 * connection, the 1 KB string workload: CPU and heap allocated per call of both sides together,
 * for three rounds after a warm-up. One process competes less with the machine's other jobs than
 * the triple bench's four, so interleaved runs before and after a change compare. Run against the
 * compiled package:
 * `npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.compiled.json npx tsx bench/triple-one-process.ts [tri|grpc-js|http2]`.
 */
import { loadContender, parseContenderName } from "./e2e/contenders.js";
import { closedLoopRound, costPerCallRounds } from "./e2e/cost-rounds.js";
import { requireCompiledPackage, textFor, traceFor } from "./e2e/workloads.js";

const CONCURRENCY = 64;
const ROUND_MS = 1500;

requireCompiledPackage();
const name = parseContenderName(process.argv[2] ?? "tri");
const contender = await loadContender(name);
const server = await contender.startServer();
const client = await contender.connect(server.port);
const call = (n: number) => client.echoText(textFor(n), traceFor(n));
const rounds = await costPerCallRounds(closedLoopRound(call, CONCURRENCY), ROUND_MS);
process.stdout.write(`${name}, consumer + provider per call (CPU, allocated): ${rounds}\n`);
await client.close();
await server.close();
