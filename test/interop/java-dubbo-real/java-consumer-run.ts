// One Java consumer JVM runs every case against our provider, directly and through ZooKeeper; the
// test files (passing and pending-fix) assert on its lines.
import { freePort, startZooKeeper } from "../../../scripts/zookeeper.mjs";
import { startTsProvider } from "./interop-contract.js";
import { type DubboVersion, javaLocalHost, type PeerLine, startJavaConsumer } from "./java-peer.js";

export interface JavaConsumerRun {
  readonly direct: readonly PeerLine[];
  readonly registry: readonly PeerLine[];
}

/** Starts ZooKeeper, our provider and a Java consumer; runs the cases both ways; stops everything. */
export async function runJavaConsumerCases(version: DubboVersion): Promise<JavaConsumerRun> {
  const zk = await startZooKeeper();
  const host = await javaLocalHost();
  const port = await freePort();
  const app = await startTsProvider(`zookeeper://${zk.connectString}`, host, port).catch(async (e) => {
    await zk.stop();
    throw e;
  });
  const consumer = startJavaConsumer(version);
  try {
    return {
      direct: await consumer.command(`cases dubbo://${host}:${port}`),
      registry: await consumer.command(`cases zookeeper://${zk.connectString}`),
    };
  } finally {
    await consumer.stop();
    await app.stop();
    await zk.stop();
  }
}

/** The line of one case; throws listing what Java printed when the case is missing. */
export function caseLine(lines: readonly PeerLine[], name: string): PeerLine {
  const line = lines.find((l) => l.case === name);
  if (line === undefined)
    throw new Error(`Java printed no case ${name}; it printed ${JSON.stringify(lines)}`);
  return line;
}
