import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, RpcError, Url } from "../../core/index.js";
import { reconnectSettingOf } from "./reconnect-setting.js";

const urlWith = (query: string) =>
  Url.parse(`dubbo://127.0.0.1:20880/demo.Service?interface=demo.Service${query}`);

describe("reconnect setting", () => {
  it("reconnect - a period in ms, true for the default 2000 ms, false to stay down", () => {
    assert.deepEqual(reconnectSettingOf(urlWith("")), { reconnect: true, periodMs: 2000 });
    assert.deepEqual(reconnectSettingOf(urlWith("&reconnect=true")), { reconnect: true, periodMs: 2000 });
    assert.deepEqual(reconnectSettingOf(urlWith("&reconnect=500")), { reconnect: true, periodMs: 500 });
    assert.deepEqual(reconnectSettingOf(urlWith("&reconnect=false")), { reconnect: false, periodMs: 2000 });
  });

  it("reconnect - anything else is an error naming the key and what to write", () => {
    for (const bad of ["soon", "0", "-5", "1.5"]) {
      assert.throws(
        () => reconnectSettingOf(urlWith(`&reconnect=${bad}`)),
        (e: unknown) =>
          e instanceof RpcError &&
          e.code === Code.InvalidArgument &&
          e.message.includes(`reconnect=${bad}`) &&
          e.message.includes("reconnect=2000"),
      );
    }
  });
});
