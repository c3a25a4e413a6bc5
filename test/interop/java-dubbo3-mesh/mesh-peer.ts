// Runs MeshPeer (java/ beside this file) on real Java Dubbo 3.3.6 through java-peer.ts's line
// protocol: providers and consumers of PickService in application-level discovery, and Java's own
// MetadataInfo revision of given URLs.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { javaDubboClasspath } from "../../../scripts/java-dubbo-deps.mjs";
import { compileJavaHarness } from "../java-build.js";
import { type PeerLine, type PeerProcess, spawnPeer } from "../java-dubbo-real/java-peer.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const PICK_SERVICE = join(HERE, "..", "java-dubbo-real", "java", "common", "com", "foo", "PickService.java");
const START_TIMEOUT_MS = 90_000;
const COMMAND_TIMEOUT_MS = 90_000;

export const PICK_SERVICE_INTERFACE = "com.foo.PickService";

/** Dubbo 3's own knobs, as system properties (Java's `dubbo.application.*`). */
export interface MeshSettings {
  /** `all` (Java's default), `interface` or `instance`. */
  readonly registerMode?: "all" | "interface" | "instance";
  /** `APPLICATION_FIRST` (Java's default), `FORCE_INTERFACE` or `FORCE_APPLICATION`. */
  readonly migration?: "APPLICATION_FIRST" | "FORCE_INTERFACE" | "FORCE_APPLICATION";
  /** `local` (Java's default: the metadata service) or `remote` (the metadata report). */
  readonly metadataType?: "local" | "remote";
}

function classpath(): string {
  const jars = javaDubboClasspath("dubbo-3.3");
  const classes = compileJavaHarness({
    sources: [join(HERE, "java"), PICK_SERVICE],
    classpath: jars,
    cacheName: "java-dubbo3-mesh",
    suite: "Dubbo 3 mesh interop tests",
  });
  return [classes, ...jars].join(":");
}

function spawnMeshPeer(app: string, args: readonly string[], settings: MeshSettings = {}): PeerProcess {
  const properties = [
    settings.registerMode === undefined ? [] : [`-Ddubbo.application.register-mode=${settings.registerMode}`],
    settings.migration === undefined
      ? []
      : [`-Ddubbo.application.service-discovery.migration=${settings.migration}`],
    settings.metadataType === undefined ? [] : [`-Ddubbo.application.metadata-type=${settings.metadataType}`],
  ].flat();
  return spawnPeer("3.3", app, args, {
    mainClass: "dubbots.mesh.MeshPeer",
    classpath: classpath(),
    properties,
  });
}

async function expectReady(peer: PeerProcess, what: string): Promise<void> {
  try {
    const line = await peer.next(START_TIMEOUT_MS);
    if (line !== '"READY"') throw new Error(`${what} said ${line} instead of READY:\n${peer.log()}`);
  } catch (error) {
    await peer.stop();
    throw error;
  }
}

export interface MeshMember {
  stop(): Promise<void>;
}

/** A Java 3.3 provider of PickService on `port`, registered as `settings` say; resolves once started. */
export async function startJavaMeshProvider(
  app: string,
  registry: string,
  port: number,
  settings: MeshSettings = {},
): Promise<MeshMember> {
  const peer = spawnMeshPeer(app, ["provider", registry, String(port)], settings);
  await expectReady(peer, `Java provider ${app}`);
  return { stop: () => peer.stop() };
}

export interface MeshConsumer extends MeshMember {
  /** Calls whoAmI until every port answered or `maxCalls` were made: the ports seen and the last error. */
  until(ports: readonly number[], maxCalls: number): Promise<{ seen: number[]; error: string | null }>;
}

/** A Java 3.3 consumer of PickService (check=false), `providedBy` naming the provider application. */
export function startJavaMeshConsumer(
  app: string,
  registry: string,
  settings: MeshSettings = {},
  providedBy?: string,
): MeshConsumer {
  const peer = spawnMeshPeer(app, ["consumer", registry, providedBy ?? "-"], settings);
  return {
    async until(ports, maxCalls) {
      peer.proc.stdin.write(`until ${ports.join(",")} ${maxCalls}\n`);
      const line = JSON.parse(await peer.next(COMMAND_TIMEOUT_MS)) as PeerLine;
      const end = await peer.next(COMMAND_TIMEOUT_MS);
      if (end !== '"END"') throw new Error(`Java consumer ended with ${end}:\n${peer.log()}`);
      return { seen: (line.seen as string[]).map(Number), error: (line.error as string | null) ?? null };
    },
    stop: () => peer.stop(),
  };
}

/** The revision Java 3.3's MetadataInfo computes for `app` exporting these provider URLs. */
export async function javaRevision(app: string, urls: readonly string[]): Promise<string> {
  const peer = spawnMeshPeer(app, ["revision", app, ...urls]);
  try {
    return (JSON.parse(await peer.next(START_TIMEOUT_MS)) as { revision: string }).revision;
  } finally {
    await peer.stop();
  }
}
