// The Invoker contract against the test fake, the injvm invoker and the dubbo invoker over a real
// loopback socket.
import { describe } from "node:test";
import { BizError, silentLogger, Url } from "../../src/core/index.js";
import { createDubboProtocol } from "../../src/protocol/dubbo/index.js";
import { createInjvmProtocol } from "../../src/protocol/injvm/index.js";
import { createProviderInvoker } from "../../src/proxy/index.js";
import { FakeInvoker } from "../../src/testing/index.js";
import {
  CONTRACT_TIMEOUT_MS,
  type ContractMethod,
  ContractService,
  type ContractSubject,
  invokerContract,
} from "./invoker-contract.js";

const IFACE = ContractService.interfaceName;

/** The provider's side of the contract; `hang` waits on a gate that closing the subject opens. */
function implementation(gates: Array<() => void>) {
  return {
    echo: (value: string) => value,
    fail(value: string): void {
      throw new BizError(`contract failure for ${value}`, { javaClass: "java.lang.IllegalStateException" });
    },
    hang: (value: string) =>
      new Promise<string>((resolve) => {
        gates.push(() => resolve(value));
      }),
  };
}

describe("invoker contract", () => {
  invokerContract("fake", async () => {
    const invoker = new FakeInvoker({ service: IFACE, params: { timeout: CONTRACT_TIMEOUT_MS } });
    const steps: Record<ContractMethod, () => void> = {
      echo: () => invoker.script({ kind: "return", value: "a" }),
      fail: () => invoker.throwBizError("contract failure for a"),
      hang: () => invoker.hangTimes(1),
    };
    const subject: ContractSubject = {
      invoker,
      prepare: (method) => steps[method](),
      pending: () => invoker.inFlight,
      close: () => invoker.destroy(),
    };
    return subject;
  });

  invokerContract("injvm", async () => {
    const gates: Array<() => void> = [];
    const protocol = createInjvmProtocol();
    const base = `injvm://127.0.0.1/${IFACE}?interface=${IFACE}`;
    await protocol.export(createProviderInvoker(ContractService, implementation(gates), Url.parse(base)));
    const invoker = await protocol.refer(Url.parse(`${base}&timeout=${CONTRACT_TIMEOUT_MS}`));
    const subject: ContractSubject = {
      invoker,
      prepare: () => {},
      pending: () => (invoker as unknown as { readonly pendingCount: number }).pendingCount,
      async close() {
        for (const open of gates.splice(0)) open();
        await protocol.destroy();
      },
    };
    return subject;
  });

  invokerContract("dubbo", async () => {
    const gates: Array<() => void> = [];
    const provider = createDubboProtocol({ logger: silentLogger, shutdownWaitMs: 100 });
    const consumer = createDubboProtocol({ logger: silentLogger });
    const exporter = await provider.export(
      createProviderInvoker(
        ContractService,
        implementation(gates),
        Url.parse(`dubbo://127.0.0.1:0/${IFACE}?interface=${IFACE}`),
      ),
    );
    const invoker = await consumer.refer(
      Url.parse(
        `dubbo://127.0.0.1:${exporter.url.port}/${IFACE}?interface=${IFACE}&timeout=${CONTRACT_TIMEOUT_MS}`,
      ),
    );
    const subject: ContractSubject = {
      invoker,
      prepare: () => {},
      pending: () => invoker.pendingCount,
      async close() {
        for (const open of gates.splice(0)) open();
        await consumer.destroy();
        await provider.destroy();
      },
    };
    return subject;
  });
});
