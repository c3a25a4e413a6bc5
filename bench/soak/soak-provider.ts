// One soak provider process: `node --import tsx soak-provider.ts <registry address> <port> <id>`.
// Registers SoakService in the registry on a fixed port (so a restart comes back on the same one),
// prints READY <port>, and runs until killed.
import { createDubbo, silentLogger } from "../../src/index.js";
import { SoakService } from "./soak-service.js";

const [registryAddress, portText, id = "provider"] = process.argv.slice(2);
if (registryAddress === undefined || portText === undefined) {
  throw new Error("usage: soak-provider.ts <registry address> <port> <id>");
}
const app = await createDubbo({
  application: { name: `soak-${id}` },
  env: false,
  logger: silentLogger,
  registry: { address: registryAddress, check: false, parameters: { "retry.period": "500" } },
  protocol: { name: "dubbo", host: "127.0.0.1", port: Number(portText) },
});
const exported = await app.export(
  SoakService,
  {
    echo: (text: string) => `${id}:${text}`,
    measure: (text: string) => text.length,
    slow: async (ms: number) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return `${id} slept ${ms}`;
    },
  },
  { scope: "remote" },
);
process.stdout.write(`READY ${exported.urls[0]?.port ?? portText}\n`);
