// The two end-to-end workloads and the service contract every contender implements: echo a 1 KB
// string, and echo a small typed object (a Java class com.foo.User in Dubbo). Every request differs,
// as real traffic does: its argument bytes and its `trace` attachment change per call.
// "dubbo-ts" is this package by name: it resolves to the compiled dist/, what an application runs.
import { defineService, java } from "dubbo-ts";

export type WorkloadName = "text" | "user";
export const WORKLOADS: readonly WorkloadName[] = ["text", "user"];
export const WORKLOAD_LABELS: Readonly<Record<WorkloadName, string>> = {
  text: "1 KB string",
  user: "small object",
};

export interface BenchUser {
  id: number;
  name: string;
  tags: string[];
}

export const BenchUserType = java.Class("com.foo.User", {
  id: java.long,
  name: java.String,
  tags: java.List(java.String),
});

export const EchoService = defineService("org.apache.dubbo.bench.EchoService", {
  echoText: { args: [java.String], returns: java.String },
  echoUser: { args: [BenchUserType], returns: BenchUserType },
});

const TEXT_BASE = "The quick brown fox jumps over the lazy dog, 0123456789. ".repeat(19);

/** The n-th 1 KB string: its first characters carry n, so no two calls send the same bytes. */
export function textFor(n: number): string {
  const stamp = `#${n.toString(36)} `;
  return stamp + TEXT_BASE.slice(0, 1024 - stamp.length);
}

export function userFor(n: number): BenchUser {
  return { id: n, name: `user-${n}`, tags: ["admin", `beta-${n % 97}`, `group-${n % 13}`] };
}

/** The n-th call's `trace` attachment (the process id keeps two clients' traces apart). */
export function traceFor(n: number): string {
  return `${process.pid.toString(36)}-${n.toString(36)}`;
}

/** What each contender's client offers the closed loop. */
export interface EchoClient {
  /** Each call carries `trace` as an attachment (or the raw echo's frame field). */
  echoText(text: string, trace: string): Promise<string>;
  echoUser(user: BenchUser, trace: string): Promise<BenchUser>;
  close(): Promise<void>;
}

export interface EchoServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Every server a bench can start in its own process: the e2e contenders and the provider peers. */
export type ServerName = ContenderName | "dubbo-js" | "ping-pong";

/** dubbo-ts over dubbo and over Triple, and the peers and ceilings each is measured against. */
export type ContenderName = "dubbo-ts" | "net" | "tri" | "grpc-js" | "http2" | "http2-als";
export const CONTENDERS: readonly ContenderName[] = ["dubbo-ts", "net"];

export interface Contender {
  startServer(): Promise<EchoServer>;
  connect(port: number): Promise<EchoClient>;
}

/**
 * Throws unless `dubbo-ts` resolves to the compiled `dist/` here, as it does in an application
 * (bench/e2e/child.ts starts the bench processes so that it does); the sources would measure
 * something else.
 */
export function requireCompiledPackage(): void {
  const resolved = import.meta.resolve("dubbo-ts");
  if (!resolved.includes("/dist/")) {
    throw new Error(
      `e2e bench: dubbo-ts resolved to ${resolved}, not the compiled dist/ (run npm run build, start through bench/e2e/child.ts)`,
    );
  }
}

/** Throws unless the echo came back intact: a fast wrong answer must not count. */
export function checkEcho(workload: WorkloadName, sent: unknown, got: unknown): void {
  const canonical = (u: BenchUser) => JSON.stringify([Number(u.id), u.name, u.tags]);
  const same =
    workload === "text" ? got === sent : canonical(got as BenchUser) === canonical(sent as BenchUser);
  if (!same) {
    throw new Error(`e2e bench: ${workload} echo returned ${JSON.stringify(got)?.slice(0, 120)}`);
  }
}
