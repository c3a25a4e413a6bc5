/**
 * What a provider process asks of the kernel per call, on the provider bench's traffic: the
 * syscalls of all its threads (`strace -c -f`, one measured cell) and, in a second cell without
 * strace, each thread's user and system CPU and its voluntary (slept in epoll) and involuntary
 * (preempted) context switches per call, from /proc. Counts hold still on a loaded machine where
 * CPU figures do not. Linux only; needs strace (`apt-get install strace`). Run:
 * `npm run build && npx tsx bench/provider-syscalls.ts [dubbo-ts|dubbo-js|ping-pong] [text|user]
 * [concurrency] [ms]`.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { runCell, startPair } from "./e2e/cells.js";
import { parseServerName } from "./e2e/servers.js";

const who = parseServerName(process.argv[2] ?? "dubbo-ts");
const workload = process.argv[3] === "user" ? "user" : "text";
const concurrency = Number(process.argv[4] ?? 1);
const durationMs = Number(process.argv[5] ?? 2000);
const TRACE_FILE = `.tmp/provider-syscalls-${who}-${workload}-c${concurrency}.txt`;
/** /proc reports CPU in clock ticks of 10 ms (USER_HZ 100). */
const TICK_US = 10_000;

interface ThreadTimes {
  readonly user: number;
  readonly system: number;
  readonly slept: number;
  readonly preempted: number;
}

function threadTimes(pid: number): Map<string, ThreadTimes> {
  const threads = new Map<string, ThreadTimes>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
    const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    threads.set(tid, {
      user: Number(fields[11]),
      system: Number(fields[12]),
      slept: count("voluntary_ctxt_switches"),
      preempted: count("nonvoluntary_ctxt_switches"),
    });
  }
  return threads;
}

const running = await startPair(who, "provider-client.ts", [who], undefined);
try {
  const pid = running.server.pid!;
  await runCell(running, workload, concurrency, 1500, 1500);

  const before = threadTimes(pid);
  const plain = await runCell(running, workload, concurrency, 0, durationMs);
  const after = threadTimes(pid);
  const calls = plain.stats.calls;
  const lines = [
    `${who} ${workload} c${concurrency}: ${Math.round(plain.stats.requestsPerSecond)} req/s, ` +
      `server ${((plain.server.cpuMs * 1000) / calls).toFixed(1)} µs CPU per call`,
  ];
  for (const [tid, end] of after) {
    const start = before.get(tid) ?? { user: 0, system: 0, slept: 0, preempted: 0 };
    const user = ((end.user - start.user) * TICK_US) / calls;
    const system = ((end.system - start.system) * TICK_US) / calls;
    if (user + system === 0 && end.slept === start.slept) continue;
    lines.push(
      `  thread ${tid.padEnd(7)} user ${user.toFixed(1).padStart(6)} µs  system ${system.toFixed(1).padStart(6)} µs  ` +
        `slept ${((end.slept - start.slept) / calls).toFixed(3)}  preempted ${((end.preempted - start.preempted) / calls).toFixed(3)} per call`,
    );
  }

  const tracer = spawn("strace", ["-c", "-f", "-o", TRACE_FILE, "-p", String(pid)], { stdio: "ignore" });
  await new Promise((resolve) => setTimeout(resolve, 500)); // strace attaches to every thread
  const traced = await runCell(running, workload, concurrency, 0, durationMs);
  tracer.kill("SIGINT");
  await once(tracer, "exit");
  lines.push(`syscalls per call under strace (${traced.stats.calls} calls):`);
  for (const line of readFileSync(TRACE_FILE, "utf8").split("\n")) {
    const row = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (row) lines.push(`  ${row[2]!.padEnd(14)} ${(Number(row[1]) / traced.stats.calls).toFixed(3)}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
} finally {
  await Promise.all([running.client.stop(), running.server.stop()]);
}
