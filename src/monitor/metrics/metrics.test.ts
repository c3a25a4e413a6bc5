import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { consoleLogger } from "../../core/index.js";
import { MonitorEvents } from "../event-stream.js";
import type { CallOutcome, CallSite } from "../events.js";
import { CallMetrics } from "./call-metrics.js";
import { prometheusText } from "./prometheus-text.js";

const site: CallSite = {
  side: "provider",
  application: "demo",
  service: "com.example.Greeter",
  group: "",
  version: "1.0.0",
};
const labels =
  'application_name="demo",group="",interface="com.example.Greeter",method="greet",version="1.0.0"';

function sample(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  assert.ok(line, `${name} is exposed for greet`);
  return Number(line.split(" ").at(-1));
}

describe("metrics", () => {
  it("prometheus - Java 3's families and labels, counts by outcome, response times", () => {
    const events = new MonitorEvents(consoleLogger);
    let now = 1_000_000;
    const metrics = new CallMetrics(events, () => now);
    const call = (outcome: CallOutcome, durationMs: number) => {
      events.emit("callStarted", { site, method: "greet", peer: "127.0.0.1:1" });
      events.emit("callFinished", {
        site,
        method: "greet",
        peer: "127.0.0.1:1",
        durationMs,
        outcome,
        code: undefined,
      });
    };
    for (let ms = 1; ms <= 100; ms++) call("success", ms);
    call("business", 5);
    call("timeout", 50);
    call("limit", 1);
    events.emit("callStarted", { site, method: "greet", peer: "127.0.0.1:1" });
    now += 1000;

    const text = prometheusText(metrics);
    assert.match(
      text,
      /^# HELP dubbo_provider_requests_total Total Requests\n# TYPE dubbo_provider_requests_total gauge\n/,
    );
    assert.equal(sample(text, "dubbo_provider_requests_total"), 104);
    assert.equal(sample(text, "dubbo_provider_requests_succeed_total"), 100);
    assert.equal(sample(text, "dubbo_provider_requests_business_failed_total"), 1);
    assert.equal(sample(text, "dubbo_provider_requests_timeout_total"), 1);
    assert.equal(sample(text, "dubbo_provider_requests_limit_total"), 1);
    assert.equal(sample(text, "dubbo_provider_requests_failed_total"), 3);
    assert.equal(sample(text, "dubbo_provider_requests_processing_total"), 1);
    assert.equal(sample(text, "dubbo_provider_qps_total"), 104);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_min"), 1);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_max"), 100);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_last"), 1);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_sum"), 5050 + 56);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_p50"), 50);
    assert.equal(sample(text, "dubbo_provider_rt_milliseconds_p99"), 99);
    assert.doesNotMatch(text, /dubbo_consumer_/, "no consumer families without consumer calls");
  });

  it("qps - counts only the calls of the last 3 seconds", () => {
    const events = new MonitorEvents(consoleLogger);
    let now = 5_000_000;
    const metrics = new CallMetrics(events, () => now);
    for (let i = 0; i < 30; i++) events.emit("callStarted", { site, method: "greet", peer: "p" });
    now += 10_000;
    for (let i = 0; i < 3; i++) events.emit("callStarted", { site, method: "greet", peer: "p" });
    assert.equal(sample(prometheusText(metrics), "dubbo_provider_qps_total"), 1);
    metrics.close();
    assert.equal(events.hasListeners("callStarted"), false, "close unsubscribes");
  });

  it("labels - quotes, backslashes and newlines in label values are escaped", () => {
    const events = new MonitorEvents(consoleLogger);
    const metrics = new CallMetrics(events);
    events.emit("callStarted", { site: { ...site, group: 'a"b\\c\nd' }, method: "greet", peer: "p" });
    assert.match(prometheusText(metrics), /group="a\\"b\\\\c\\nd"/);
  });
});
