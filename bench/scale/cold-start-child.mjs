// One cold process of the cold-start bench (run by cold-start.ts), plain JavaScript so that the
// compiled package runs under bare `node` with no loader: a provider that prints `ready <port>`
// once its service is exported, or a consumer that prints `answer <text>` once its first call
// returned, each followed by `cpu=<ms>` (the process's own CPU so far, which a loaded machine
// inflates less than wall time). `spec` is what to import: `dubbo-ts` (the compiled package) or
// the source entry (run with `--import tsx`).
//   node [--import tsx] bench/scale/cold-start-child.mjs <provider|consumer> <spec> [port]
const [role, spec, port] = process.argv.slice(2);
const cpuSoFar = () => {
  const { user, system } = process.cpuUsage();
  return `cpu=${((user + system) / 1000).toFixed(0)}`;
};
const { createDubbo, defineService, java, silentLogger } = await import(spec);
const Greeter = defineService("org.apache.dubbo.bench.ColdService", {
  hello: { args: [java.String], returns: java.String },
});
if (role === "provider") {
  const app = await createDubbo({
    application: { name: "cold-provider" },
    protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    env: false,
    logger: silentLogger,
  });
  const exported = await app.export(Greeter, { hello: (name) => `hello ${name}` }, { scope: "remote" });
  console.log(`ready ${exported.urls[0].port} ${cpuSoFar()}`);
  process.once("SIGTERM", () => app.stop().then(() => process.exit(0)));
} else {
  const app = await createDubbo({ application: { name: "cold-consumer" }, env: false, logger: silentLogger });
  const stub = await app.refer(Greeter, { url: `dubbo://127.0.0.1:${port}` });
  const answer = await stub.hello("cold");
  console.log(`answer ${answer} ${cpuSoFar()}`);
  await app.stop();
}
