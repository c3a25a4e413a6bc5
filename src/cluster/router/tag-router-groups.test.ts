import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createInvocation, type Invoker, javaUrlEncode, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { StaticDirectory } from "../directory/static-directory.js";
import { createMockRouter, createTagRouter } from "./index.js";

// The tag router groups each provider list once and answers calls from those groups: these tests
// change the list or the rule between calls and check the groups follow.

const SERVICE = "com.foo.GroupService";
const CONSUMER = Url.parse(`consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}`);
const provider = (address: string, params: Record<string, string> = {}) =>
  new FakeInvoker({ address, service: SERVICE, params });
const plain = provider("10.0.0.1:20880", { env: "prod" });
const gray1 = provider("10.0.0.2:20880", { "dubbo.tag": "gray", env: "gray" });
const gray2 = provider("10.0.0.3:20880", { "dubbo.tag": "gray", env: "gray" });
const call = (tag?: string) =>
  createInvocation({
    service: SERVICE,
    method: "m",
    attachments: tag === undefined ? {} : { "dubbo.tag": tag },
  });

function ruleRouter(yaml: string) {
  return createTagRouter(
    Url.parse(`tag://0.0.0.0/${SERVICE}?category=routers`).withParams({
      rule: javaUrlEncode(yaml),
      ruleKey: "k",
    }),
  );
}

const tagsAddress = (address: string) => `enabled: true
key: k
tags:
  - name: blue
    addresses: ["${address}"]
`;

const tagsEnv = (env: string) => `configVersion: v3.0
enabled: true
key: k
tags:
  - name: blue
    match:
      - key: env
        value:
          exact: ${env}
`;

describe("tag router groups per provider list", () => {
  it("a new provider list regroups: a provider tagged since the last list is routed to", () => {
    const directory = new StaticDirectory(
      CONSUMER,
      [plain, gray1],
      [createMockRouter(), createTagRouter(CONSUMER)],
    );
    assert.deepEqual(directory.list(call("gray")), [gray1]);
    assert.deepEqual(directory.list(call()), [plain]);
    directory.setInvokers([plain, gray1, gray2]);
    assert.deepEqual(directory.list(call("gray")), [gray1, gray2]);
    directory.setInvokers([gray2]);
    assert.deepEqual(directory.list(call("gray")), [gray2]);
    assert.deepEqual(directory.list(call()), [], "no untagged provider is left");
  });

  it("a list that is not frozen is grouped on every call, so changing it in place shows", () => {
    const router = createTagRouter(CONSUMER);
    const invokers: Invoker[] = [plain, gray1];
    assert.deepEqual(router.route(invokers, CONSUMER, call("gray")), [gray1]);
    invokers.push(gray2);
    assert.deepEqual(router.route(invokers, CONSUMER, call("gray")), [gray1, gray2]);
  });

  it("a new tag rule on the same provider list regroups by the new rule", () => {
    const providers = [plain, gray1, gray2];
    const directory = new StaticDirectory(CONSUMER, providers, [
      createMockRouter(),
      ruleRouter(tagsAddress(plain.url.address)),
    ]);
    assert.deepEqual(directory.list(call("blue")), [plain]);
    directory.setRouters([createMockRouter(), ruleRouter(tagsAddress(gray1.url.address))]);
    assert.deepEqual(directory.list(call("blue")), [gray1]);
    assert.deepEqual(directory.list(call()), [plain], "the provider the old rule tagged is untagged again");
  });

  it("a notify drops the groups made from the addresses a v3.0 match found before", () => {
    const router = ruleRouter(tagsEnv("gray"));
    const providers = Object.freeze([plain, gray1, gray2]);
    router.notify?.(providers);
    assert.deepEqual(router.route(providers, CONSUMER, call("blue")), [gray1, gray2]);
    // Notified of a list where the third address no longer has env=gray: the tag loses it.
    router.notify?.(
      Object.freeze([plain, gray1, provider(gray2.url.address, { "dubbo.tag": "gray", env: "prod" })]),
    );
    assert.deepEqual(router.route(providers, CONSUMER, call("blue")), [gray1]);
  });
});
