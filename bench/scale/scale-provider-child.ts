// The provider of the eager directory scale bench (run by directory.ts): one dubbo server on every
// loopback address (0.0.0.0), so the 127.x.y.z providers written into ZooKeeper all reach it and
// each eager reference holds a real connection. Prints `{"port":N}`, then serves until killed.
//   node --import tsx bench/scale/scale-provider-child.ts
import { defineService, java, silentLogger, Url } from "../../src/core/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createProviderInvoker } from "../../src/proxy/index.js";
import { SCALE_IFACE } from "./providers.js";

const ScaleService = defineService(SCALE_IFACE, { echo: { args: [java.String], returns: java.String } });
const protocol = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 0 });
const exporter = await protocol.export(
  createProviderInvoker(
    ScaleService,
    { echo: (text: string) => text },
    Url.parse(`dubbo://0.0.0.0:0/${SCALE_IFACE}?interface=${SCALE_IFACE}&accepts=0`),
  ),
);
console.log(JSON.stringify({ port: exporter.url.port }));
process.once("SIGTERM", () => {
  protocol.destroy().then(() => process.exit(0));
});
