// Reads what Java and we wrote into ZooKeeper, with a plain client of our own (not the registry).
import zookeeper from "node-zookeeper-client";
import { waitFor } from "../../../src/testing/index.js";

function isNoNode(error: unknown): boolean {
  return error instanceof zookeeper.Exception && error.getCode() === zookeeper.Exception.NO_NODE;
}

export interface ZkReader {
  /** The node's data as text, or undefined when it does not exist. */
  data(path: string): Promise<string | undefined>;
  children(path: string): Promise<string[]>;
  /** Waits (bounded) until `path` has a child whose name ends with `suffix`; returns its data. */
  childData(path: string, suffix: string): Promise<string>;
  close(): void;
}

export async function openZkReader(connectString: string): Promise<ZkReader> {
  const client = zookeeper.createClient(connectString);
  await new Promise<void>((resolve) => {
    client.once("connected", () => resolve());
    client.connect();
  });
  const data = (path: string): Promise<string | undefined> =>
    new Promise((resolve, reject) =>
      client.getData(path, (error, bytes) => {
        if (isNoNode(error)) resolve(undefined);
        else if (error) reject(error);
        else resolve(bytes?.toString("utf8") ?? "");
      }),
    );
  const children = (path: string): Promise<string[]> =>
    new Promise((resolve, reject) =>
      client.getChildren(path, (error, names) => {
        if (isNoNode(error)) resolve([]);
        else if (error) reject(error);
        else resolve(names);
      }),
    );
  return {
    data,
    children,
    async childData(path, suffix) {
      let found: string | undefined;
      await waitFor(`a child of ${path} ending with ${suffix}`, async () => {
        found = (await children(path)).find((name) => name.endsWith(suffix));
        return found !== undefined;
      });
      return (await data(`${path}/${found}`)) ?? "";
    },
    close: () => client.close(),
  };
}
