// The directory bench's load without ZooKeeper, round after round in one process: the bench's
// 10 000 node names (fresh strings from a reply's bytes, as a read gives them) parsed by
// `ChildUrls`, then a `RegistryDirectory` with bare invokers notified with the URLs. The first
// round is what a fresh process pays, as the scale bench's load does (the code runs cold: the
// interpreter, and the optimising compiler's threads, which process.cpuUsage counts); the later
// rounds are the warm cost of the same work. `--no-opt` (a V8 flag) shows the first without the
// compiler. Prints each round's CPU of the parse and of the directory.
//   node --import tsx bench/scale/directory-load-rounds.ts [rounds] [providers]
import { silentLogger, Url } from "../../src/core/index.js";
import { RegistryDirectory } from "../../src/registry/directory/index.js";
import type { NotifyListener, Registry } from "../../src/registry/registry.js";
import { ChildNames } from "../../src/registry/zookeeper/child-names.js";
import { ChildUrls } from "../../src/registry/zookeeper/child-urls.js";
import { bareProtocol } from "./bare-invoker.js";
import { scaleConsumerUrl, scaleProviderUrl } from "./providers.js";

const rounds = Math.max(1, Number(process.argv[2] ?? 5));
const count = Number(process.argv[3] ?? 10_000);
const names = Array.from({ length: count }, (_, i) => scaleProviderUrl(i).encode());
const consumerUrl = scaleConsumerUrl({});
const subscription = consumerUrl.withParams({ category: "providers" });

/** A registry that hands the directory `urls` as its first notification. */
function registryOf(urls: readonly Url[]): Registry {
  return {
    url: Url.parse("zookeeper://127.0.0.1:2181"),
    register: async () => {},
    unregister: async () => {},
    subscribe: async (_url: Url, listener: NotifyListener) => listener(urls),
    unsubscribe: async () => {},
    lookup: async () => [],
    isAvailable: () => true,
    destroy: async () => {},
  };
}

const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

for (let round = 1; round <= rounds; round++) {
  const children = ChildNames.of(names);
  const parseFrom = process.cpuUsage();
  const childUrls = new ChildUrls(subscription, "/bench", silentLogger);
  await childUrls.prepare(children);
  const urls = childUrls.urls(children);
  const parseMs = cpuMs(parseFrom);
  const directoryFrom = process.cpuUsage();
  const directory = new RegistryDirectory({
    consumerUrl,
    registry: registryOf(urls),
    protocol: bareProtocol,
    logger: silentLogger,
  });
  await directory.subscribe();
  const directoryMs = cpuMs(directoryFrom);
  if (directory.all().length !== count) throw new Error(`loaded ${directory.all().length} of ${count}`);
  console.log(`round ${round}: parse ${parseMs.toFixed(1)} ms, directory ${directoryMs.toFixed(1)} ms CPU`);
  await directory.destroy();
}
