// Compiles and runs our Java Dubbo 2 harness (java/ beside this file) on Debian's Caucho Hessian.
// Classes are cached under .tmp/ keyed by a hash of the sources and the jar, so javac runs only
// when they change. Client mode prints one JSON line per response; server mode prints its port and
// then one JSON line per connection, request and heartbeat.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { compileJavaHarness, HESSIAN_JAR, missingJavaTool } from "../java-build.js";

export { HESSIAN_JAR } from "../java-build.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const MAIN_CLASS = "dubbots.javadubbo.JavaDubboHarness";
const SUITE = "Java Dubbo interop tests";

/** Caucho reflects into JDK classes (Throwable, collections); Java 17 needs them opened. */
const JVM_FLAGS = [
  "-XX:TieredStopAtLevel=1",
  "-Xshare:auto",
  "--add-opens=java.base/java.lang=ALL-UNNAMED",
  "--add-opens=java.base/java.util=ALL-UNNAMED",
];

function missing(what: string): Error {
  return missingJavaTool(SUITE, what);
}

/** The class directory; compiles only when the sources or the jar changed. */
export function compileJavaDubboHarness(): string {
  return compileJavaHarness({
    sources: [join(HERE, "java")],
    cacheName: "java-dubbo-harness",
    suite: SUITE,
  });
}

function spawnJava(args: readonly string[]): ChildProcessWithoutNullStreams {
  const classes = compileJavaDubboHarness();
  // stdin stays open: the harness exits when it closes, so a dead test never leaves Java behind.
  return spawn("java", [...JVM_FLAGS, "-cp", `${classes}:${HESSIAN_JAR}`, MAIN_CLASS, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function javaError(error: NodeJS.ErrnoException): Error {
  return error.code === "ENOENT" ? missing("java (a JDK, 17 or newer)") : error;
}

/** One response as the Java client decoded it. */
export interface JavaClientLine {
  readonly case: string;
  readonly id?: string;
  readonly request?: boolean;
  readonly event?: boolean;
  readonly serialization?: number;
  readonly status?: number;
  readonly kind?: number;
  readonly value?: unknown;
  readonly attachments?: Record<string, unknown>;
  readonly error?: string;
  readonly decodeError?: string;
}

/** Runs the Java client against host:port; resolves with one line per response once it is done. */
export function runJavaClient(host: string, port: number, timeoutMs = 60_000): Promise<JavaClientLine[]> {
  return new Promise((resolve, reject) => {
    const proc = spawnJava(["client", host, String(port)]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`Java Dubbo client did not finish within ${timeoutMs} ms:\n${Buffer.concat(err)}`));
    }, timeoutMs);
    timer.unref();
    proc.stdout.on("data", (c: Buffer) => out.push(c));
    proc.stderr.on("data", (c: Buffer) => err.push(c));
    proc.on("error", (e) => {
      clearTimeout(timer);
      reject(javaError(e));
    });
    proc.on("close", (code) => {
      clearTimeout(timer);
      const lines = Buffer.concat(out).toString("utf8").split("\n").filter(Boolean);
      if (code !== 0 || lines.at(-1) !== "DONE") {
        reject(
          new Error(`Java Dubbo client exited with ${code}:\n${lines.join("\n")}\n${Buffer.concat(err)}`),
        );
        return;
      }
      resolve(lines.slice(0, -1).map((l) => JSON.parse(l) as JavaClientLine));
    });
  });
}

/** What the Java server prints: connections, requests (with the decoded body) and heartbeats. */
export interface JavaServerEvent {
  readonly type:
    | "connected"
    | "closed"
    | "request"
    | "heartbeat"
    | "heartbeatReply"
    | "response"
    | "connectionError";
  readonly [field: string]: unknown;
}

export interface JavaServer {
  readonly port: number;
  readonly pid: number | undefined;
  readonly events: readonly JavaServerEvent[];
  /** Resolves with the first event (past or future) that matches, or rejects after `timeoutMs`. */
  waitFor(match: (e: JavaServerEvent) => boolean, timeoutMs: number): Promise<JavaServerEvent>;
  stop(): Promise<void>;
}

/** Starts the Java server; resolves once it printed its port. */
export function startJavaServer(timeoutMs = 60_000): Promise<JavaServer> {
  return new Promise((resolve, reject) => {
    const proc = spawnJava(["server"]);
    const events: JavaServerEvent[] = [];
    const watchers = new Set<() => void>();
    const stderr: Buffer[] = [];
    proc.stderr.on("data", (c: Buffer) => stderr.push(c));
    const startTimer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`Java Dubbo server did not start within ${timeoutMs} ms:\n${Buffer.concat(stderr)}`));
    }, timeoutMs);
    proc.on("error", (e) => {
      clearTimeout(startTimer);
      reject(javaError(e));
    });
    proc.on("exit", (code) => {
      clearTimeout(startTimer);
      reject(
        new Error(`Java Dubbo server exited with ${code} before it listened:\n${Buffer.concat(stderr)}`),
      );
    });
    const server: Omit<JavaServer, "port"> = {
      pid: proc.pid,
      events,
      waitFor(match, waitMs) {
        return new Promise((done, fail) => {
          const check = (): boolean => {
            const hit = events.find(match);
            if (hit === undefined) return false;
            watchers.delete(watcher);
            clearTimeout(timer);
            done(hit);
            return true;
          };
          const watcher = (): void => {
            check();
          };
          const timer = setTimeout(() => {
            watchers.delete(watcher);
            fail(
              new Error(
                `Java Dubbo server: no matching event within ${waitMs} ms; saw ${JSON.stringify(events)}`,
              ),
            );
          }, waitMs);
          watchers.add(watcher);
          check();
        });
      },
      stop() {
        if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
        return new Promise((done) => {
          proc.once("close", () => done());
          proc.kill("SIGKILL");
        });
      },
    };
    createInterface({ input: proc.stdout }).on("line", (line) => {
      if (line.startsWith("LISTENING ")) {
        clearTimeout(startTimer);
        resolve({ ...server, port: Number(line.slice("LISTENING ".length)) });
        return;
      }
      events.push(JSON.parse(line) as JavaServerEvent);
      for (const w of [...watchers]) w();
    });
  });
}
