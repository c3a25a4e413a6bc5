import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createDubbo, RpcError, silentLogger } from "dubbo-ts";

const base = { logger: silentLogger, env: false, application: { name: "settings-app" } } as const;

/** Rejects with an InvalidArgument RpcError whose message has every one of `parts`. */
async function rejectsWith(creating: Promise<unknown>, ...parts: string[]): Promise<void> {
  await assert.rejects(creating, (error: unknown) => {
    assert.ok(error instanceof RpcError, String(error));
    assert.equal(error.code, Code.InvalidArgument);
    for (const part of parts) assert.ok(error.message.includes(part), `${error.message} lacks ${part}`);
    return true;
  });
}

describe("built-in plugins check their own settings", () => {
  it("plugins - the zookeeper registry refuses a session time or backup list it cannot use, before connecting", async () => {
    await rejectsWith(
      createDubbo({
        ...base,
        registry: { address: "zookeeper://127.0.0.1:1", parameters: { "zk.session.expire": "soon" } },
      }),
      "registries.default",
      'zookeeper registry at 127.0.0.1:1 does not accept zk.session.expire="soon"',
      "a whole number of ms",
    );
    await rejectsWith(
      createDubbo({ ...base, registry: { address: "zookeeper://127.0.0.1:1?backup=other-host" } }),
      "does not accept backup=",
      "host:port",
    );
  });

  it("plugins - the embedded registry refuses a lease that is not a number of ms", async () => {
    await rejectsWith(
      createDubbo({ ...base, registry: { address: "dubbo://127.0.0.1:1", parameters: { lease: "-5" } } }),
      'dubbo registry at 127.0.0.1:1 does not accept lease="-5"',
    );
  });
});
