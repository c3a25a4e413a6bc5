// Runs TriplePeer (java/ beside this file) on real Java Dubbo 3.3.6 through java-peer.ts's line
// protocol: a Java Triple provider of TripleGreeter, or a Java Triple consumer that runs every case.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { javaDubboClasspath } from "../../../scripts/java-dubbo-deps.mjs";
import { defineService, java } from "../../../src/index.js";
import { compileJavaHarness } from "../java-build.js";
import { type PeerProcess, spawnPeer } from "../java-dubbo-real/java-peer.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const START_TIMEOUT_MS = 90_000;
const CASES_TIMEOUT_MS = 90_000;

export const Person = java.Class("com.foo.Person", { name: java.String, age: java.int });

/** TripleGreeter.java as a contract. */
export const TripleGreeter = defineService("com.foo.TripleGreeter", {
  greet: { args: [java.String], returns: java.String },
  older: { args: [Person], returns: Person },
  add: { args: [java.int, java.long], returns: java.long },
  fail: { args: [java.String], returns: java.String },
  context: { args: [java.String], returns: java.String },
});

/** Interface-level discovery on both sides (application-level discovery over tri is not covered here). */
const INTERFACE_DISCOVERY = [
  "-Ddubbo.application.register-mode=interface",
  "-Ddubbo.application.service-discovery.migration=FORCE_INTERFACE",
];

function spawnTriplePeer(app: string, args: readonly string[]): PeerProcess {
  const jars = javaDubboClasspath("dubbo-3.3");
  const classes = compileJavaHarness({
    sources: [join(HERE, "java")],
    classpath: jars,
    cacheName: "java-triple",
    suite: "Java Triple interop tests",
  });
  return spawnPeer("3.3", app, args, {
    mainClass: "dubbots.triple.TriplePeer",
    classpath: [classes, ...jars].join(":"),
    properties: INTERFACE_DISCOVERY,
  });
}

/** A Java 3.3 Triple provider on `host:port`, registered in `registry` (or `-` for none). */
export async function startJavaTripleProvider(
  registry: string,
  host: string,
  port: number,
): Promise<PeerProcess> {
  const peer = spawnTriplePeer("java-triple-provider", ["provider", registry, host, String(port)]);
  try {
    const line = await peer.next(START_TIMEOUT_MS);
    if (line !== '"READY"')
      throw new Error(`the Java Triple provider said ${line} instead of READY:\n${peer.log()}`);
  } catch (error) {
    await peer.stop();
    throw error;
  }
  return peer;
}

/** One case's outcome as the Java consumer printed it. */
export interface CaseResult {
  readonly case: string;
  readonly value?: unknown;
  readonly error?: string;
  readonly type?: string;
}

/** Runs the Java Triple consumer's cases against `target` (a registry address or `tri://host:port`). */
export async function runJavaTripleConsumer(target: string): Promise<Map<string, CaseResult>> {
  const peer = spawnTriplePeer("java-triple-consumer", ["consumer", target]);
  const results = new Map<string, CaseResult>();
  try {
    for (;;) {
      const line = await peer.next(CASES_TIMEOUT_MS);
      if (line === '"END"') return results;
      const result = JSON.parse(line) as CaseResult;
      results.set(result.case, result);
    }
  } finally {
    await peer.stop();
  }
}
