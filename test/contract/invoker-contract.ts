// The Invoker contract: what every protocol invoker promises the cluster above it, as one suite that
// runs against each implementation (the test fake included, so a fake can never promise more than
// the product does).
import assert from "node:assert/strict";
import { it } from "node:test";
import {
  BizError,
  Code,
  createInvocation,
  defineService,
  type Invocation,
  type Invoker,
  java,
  RpcError,
} from "../../src/core/index.js";

export const ContractService = defineService("demo.ContractService", {
  /** Answers its argument. */
  echo: { args: [java.String], returns: java.String },
  /** Throws the provider's own exception. */
  fail: { args: [java.String], returns: java.void },
  /** Never answers until the subject closes. */
  hang: { args: [java.String], returns: java.String },
});

export type ContractMethod = keyof typeof ContractService.methods;

/** The reference's `timeout`, ms: short enough that a hung call times out within the test. */
export const CONTRACT_TIMEOUT_MS = 300;

export interface ContractSubject {
  /** An invoker of {@link ContractService} whose URL has `timeout` = {@link CONTRACT_TIMEOUT_MS}. */
  readonly invoker: Invoker;
  /** Makes the next call behave as `method` says (real providers choose by method; a fake by script). */
  prepare(method: ContractMethod): void;
  /** Calls the invoker still waits for (its pending table). */
  pending(): number;
  close(): Promise<void>;
}

function call(method: ContractMethod, signal?: AbortSignal): Invocation {
  const spec = ContractService.methods[method];
  return createInvocation({
    service: ContractService.interfaceName,
    method,
    parameterTypes: spec.args,
    returnType: spec.returns,
    args: ["a"],
    ...(signal === undefined ? {} : { signal }),
  });
}

const codeOf = (error: unknown): Code | undefined => (error instanceof RpcError ? error.code : undefined);

/** Registers the contract's cases for one implementation; `open` makes a fresh subject per case. */
export function invokerContract(name: string, open: () => Promise<ContractSubject>): void {
  async function withSubject(body: (subject: ContractSubject) => Promise<void>): Promise<void> {
    const subject = await open();
    try {
      await body(subject);
    } finally {
      await subject.close();
    }
  }

  it(`${name} - a call answers its result`, () =>
    withSubject(async (s) => {
      s.prepare("echo");
      assert.equal((await s.invoker.invoke(call("echo"))).value, "a");
      assert.equal(s.pending(), 0);
    }));

  it(`${name} - the provider's exception arrives as a BizError`, () =>
    withSubject(async (s) => {
      s.prepare("fail");
      await assert.rejects(s.invoker.invoke(call("fail")), (e: unknown) => e instanceof BizError);
    }));

  it(`${name} - each attempt waits at most its timeout, then fails with DeadlineExceeded and waits no more`, () =>
    withSubject(async (s) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        s.prepare("hang");
        await assert.rejects(
          s.invoker.invoke(call("hang")),
          (e: unknown) => codeOf(e) === Code.DeadlineExceeded && /hang/.test((e as Error).message),
        );
        assert.equal(s.pending(), 0, "a timed-out attempt leaves nothing waiting");
      }
    }));

  it(`${name} - aborting the signal frees the waiting call at once and rejects with Canceled`, () =>
    withSubject(async (s) => {
      s.prepare("hang");
      const controller = new AbortController();
      const waiting = s.invoker.invoke(call("hang", controller.signal));
      assert.equal(s.pending(), 1);
      controller.abort();
      assert.equal(s.pending(), 0, "the pending entry is gone as soon as the signal aborts");
      await assert.rejects(waiting, (e: unknown) => codeOf(e) === Code.Canceled);
      s.prepare("echo");
      await assert.rejects(
        s.invoker.invoke(call("echo", controller.signal)),
        (e: unknown) => codeOf(e) === Code.Canceled,
        "a call whose signal already aborted is not made",
      );
    }));

  it(`${name} - destroy makes it unavailable, and a later call fails naming the destroyed reference`, () =>
    withSubject(async (s) => {
      assert.equal(s.invoker.isAvailable(), true);
      await s.invoker.destroy();
      assert.equal(s.invoker.isAvailable(), false);
      s.prepare("echo");
      await assert.rejects(
        s.invoker.invoke(call("echo")),
        (e: unknown) => codeOf(e) === Code.Unavailable && /destroyed/.test((e as Error).message),
      );
    }));
}
