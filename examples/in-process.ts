// The in-process example: one application exports DemoService and calls it through a reference,
// with an attachment round trip, $echo and a generic $invoke. Run: npm run example:in-process
import { createDubbo, getRpcContext, runWithRpcContext } from "dubbo-ts";
import { DemoService } from "./demo-service.js";

const app = await createDubbo({ application: { name: "demo" }, env: false });
try {
  await app.export(
    DemoService,
    {
      sayHello(name) {
        const context = getRpcContext();
        context.setResponseAttachment("served-by", "demo-provider");
        return `Hello ${name}, trace ${String(context.getAttachment("trace-id"))}`;
      },
    },
    { scope: "local" },
  );

  const demo = await app.refer(DemoService);
  await runWithRpcContext(async (context) => {
    context.setAttachment("trace-id", "t-42");
    console.log("sayHello       →", await demo.sayHello("dubbo-ts"));
    console.log("attachment back →", context.getReceivedAttachment("served-by"));
  });
  console.log("$echo          →", await demo.$echo("ping"));

  const generic = await app.referGeneric(DemoService.interfaceName);
  console.log(
    "$invoke        →",
    await generic.$invoke("sayHello", ["java.lang.String"], ["generic caller"]),
  );
} finally {
  await app.stop();
}
