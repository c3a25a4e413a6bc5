import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createInvocation, type Invoker, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { createMockRouter, createTagRouter, MOCK_ROUTER_PRIORITY, TAG_ROUTER_PRIORITY } from "./index.js";

const SERVICE = "com.foo.BarService";
const plain = new FakeInvoker({ address: "10.0.0.1:20880", service: SERVICE });
const gray1 = new FakeInvoker({
  address: "10.0.0.2:20880",
  service: SERVICE,
  params: { "dubbo.tag": "gray" },
});
const gray2 = new FakeInvoker({
  address: "10.0.0.3:20880",
  service: SERVICE,
  params: { "dubbo.tag": "gray" },
});
const PROVIDERS: readonly Invoker[] = [plain, gray1, gray2];
const CONSUMER = Url.parse(`consumer://10.0.0.9/${SERVICE}?interface=${SERVICE}`);

function call(attachments: Record<string, unknown> = {}) {
  return createInvocation({ service: SERVICE, method: "find", attachments });
}

describe("tag router", () => {
  const router = createTagRouter(CONSUMER);

  it("tag router - a tagged request gets the providers with that tag", () => {
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call({ "dubbo.tag": "gray" })), [gray1, gray2]);
  });

  it("tag router - an unknown tag falls back to untagged providers", () => {
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call({ "dubbo.tag": "blue" })), [plain]);
  });

  it("tag router - dubbo.force.tag=true in the attachments forbids the fallback", () => {
    const inv = call({ "dubbo.tag": "blue", "dubbo.force.tag": "true" });
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, inv), []);
  });

  it("tag router - dubbo.force.tag=true on the consumer URL forbids the fallback", () => {
    const forced = CONSUMER.withParams({ "dubbo.force.tag": "true" });
    assert.deepEqual(router.route(PROVIDERS, forced, call({ "dubbo.tag": "blue" })), []);
    // The attachment wins over the URL.
    assert.deepEqual(
      router.route(PROVIDERS, forced, call({ "dubbo.tag": "blue", "dubbo.force.tag": "false" })),
      [plain],
    );
  });

  it("tag router - force does not matter when tagged providers exist", () => {
    const inv = call({ "dubbo.tag": "gray", "dubbo.force.tag": "true" });
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, inv), [gray1, gray2]);
  });

  it("tag router - an untagged request never reaches tagged providers", () => {
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call()), [plain]);
  });

  it("tag router - the consumer URL's dubbo.tag applies when the request has none", () => {
    const tagged = CONSUMER.withParams({ "dubbo.tag": "gray" });
    assert.deepEqual(router.route(PROVIDERS, tagged, call()), [gray1, gray2]);
    assert.deepEqual(router.route(PROVIDERS, tagged, call({ "dubbo.tag": "blue" })), [plain]);
  });

  it("tag router - a list that needs no filtering is returned as is", () => {
    const untagged = [plain];
    assert.equal(router.route(untagged, CONSUMER, call()), untagged);
    assert.equal(router.priority, TAG_ROUTER_PRIORITY);
  });
});

describe("mock router", () => {
  const router = createMockRouter();
  const mock = new FakeInvoker({ address: "10.0.0.8:0", service: SERVICE, protocol: "mock" });
  const withMock: readonly Invoker[] = [plain, mock, gray1];

  it("mock router - ordinary calls never get mock providers", () => {
    assert.deepEqual(router.route(withMock, CONSUMER, call()), [plain, gray1]);
  });

  it("mock router - calls marked invocation.need.mock=true get only mock providers", () => {
    assert.deepEqual(router.route(withMock, CONSUMER, call({ "invocation.need.mock": "true" })), [mock]);
    assert.deepEqual(router.route(withMock, CONSUMER, call({ "invocation.need.mock": true })), [mock]);
  });

  it("mock router - a mock call with no mock provider gets none", () => {
    assert.deepEqual(router.route(PROVIDERS, CONSUMER, call({ "invocation.need.mock": "true" })), []);
  });

  it("mock router - any other mark leaves the list untouched, as Java", () => {
    assert.equal(router.route(withMock, CONSUMER, call({ "invocation.need.mock": "false" })), withMock);
  });

  it("mock router - a list without mock providers is returned as is, first in the chain", () => {
    assert.equal(router.route(PROVIDERS, CONSUMER, call()), PROVIDERS);
    assert.equal(router.priority, MOCK_ROUTER_PRIORITY);
  });

  it("mock router - a changed provider list is filtered anew, not answered from the last one", () => {
    const own = createMockRouter();
    const before = Object.freeze([plain, mock]);
    const after = Object.freeze([gray1, mock, gray2]);
    assert.deepEqual(own.route(before, CONSUMER, call()), [plain]);
    assert.deepEqual(own.route(before, CONSUMER, call()), [plain]);
    assert.deepEqual(own.route(after, CONSUMER, call()), [gray1, gray2]);
    assert.deepEqual(own.route(before, CONSUMER, call()), [plain]);
    assert.deepEqual(own.route(after, CONSUMER, call({ "invocation.need.mock": "true" })), [mock]);
  });
});
