// What the monitor benchmarks share: an invoker that answers at once, one call to it, and the
// mean time per call through a filter chain around it.
import { createInvocation, type Invoker, java, resultOf, Url } from "../src/core/index.js";

export const immediateInvoker: Invoker = {
  url: Url.parse("dubbo://127.0.0.1:20880/com.example.Greeter?application=bench&version=1.0.0"),
  isAvailable: () => true,
  destroy: async () => {},
  invoke: async () => resultOf("ok"),
};

const inv = createInvocation({
  service: "com.example.Greeter",
  method: "greet",
  args: ["x"],
  parameterTypes: [java.String],
  remoteAddress: "127.0.0.1:5555",
});

/** Mean nanoseconds per call through `chain`, after a warm-up. */
export async function nsPerCall(chain: Invoker, calls: number): Promise<number> {
  for (let i = 0; i < 20_000; i++) await chain.invoke(inv);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await chain.invoke(inv);
  return Number(process.hrtime.bigint() - t0) / calls;
}
