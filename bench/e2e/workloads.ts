// The two end-to-end workloads and the service contract every contender implements: echo a 1 KB
// string, and echo a small typed object (a Java class com.foo.User in Dubbo, a message in gRPC).
import { defineService, java } from "../../src/core/index.js";

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

export const TEXT_PAYLOAD = "The quick brown fox jumps over the lazy dog, 0123456789. "
  .repeat(19)
  .slice(0, 1024);
export const USER_PAYLOAD: BenchUser = { id: 4242, name: "user-4242", tags: ["admin", "beta", "group-3"] };

/** What each contender's client offers the closed loop. */
export interface EchoClient {
  echoText(text: string): Promise<string>;
  echoUser(user: BenchUser): Promise<BenchUser>;
  close(): Promise<void>;
}

export interface EchoServer {
  readonly port: number;
  close(): Promise<void>;
}

export type ContenderName = "dubbo-ts" | "net" | "grpc-js";
export const CONTENDERS: readonly ContenderName[] = ["dubbo-ts", "net", "grpc-js"];

export interface Contender {
  startServer(): Promise<EchoServer>;
  connect(port: number): Promise<EchoClient>;
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
