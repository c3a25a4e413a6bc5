import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Code, createInvocation, type Invoker, RpcError, Url } from "../../core/index.js";
import { FakeInvoker } from "../../testing/index.js";
import { createConditionRouter, parseConditionRule } from "./index.js";

const SERVICE = "com.foo.BarService";
const A = new FakeInvoker({
  address: "10.20.153.10:20880",
  service: SERVICE,
  params: { application: "alpha", region: "east" },
});
const B = new FakeInvoker({
  address: "10.20.153.11:20880",
  service: SERVICE,
  params: { application: "beta", region: "west" },
});
const C = new FakeInvoker({
  address: "192.168.1.5:20881",
  service: SERVICE,
  params: { application: "alpha", region: "west" },
});
const PROVIDERS: readonly Invoker[] = [A, B, C];
const CONSUMER = Url.parse(
  `consumer://10.20.3.3/${SERVICE}?application=shop&interface=${SERVICE}&region=east&side=consumer`,
);

function ruleUrl(rule: string, params: Record<string, string> = {}): Url {
  const extra = Object.entries(params)
    .map(([k, v]) => `&${k}=${v}`)
    .join("");
  return Url.parse(
    `condition://0.0.0.0/${SERVICE}?category=routers&dynamic=false&rule=${encodeURIComponent(rule)}${extra}`,
  );
}

function route(
  rule: string,
  options: { params?: Record<string, string>; method?: string; args?: unknown[] } = {},
) {
  const router = createConditionRouter(ruleUrl(rule, options.params));
  const inv = createInvocation({
    service: SERVICE,
    method: options.method ?? "findUser",
    args: options.args ?? [],
  });
  return router.route(PROVIDERS, CONSUMER, inv).map((i) => i.url.address);
}

const ALL = ["10.20.153.10:20880", "10.20.153.11:20880", "192.168.1.5:20881"];
const [a, b, c] = ALL as [string, string, string];

interface Row {
  readonly name: string;
  readonly rule: string;
  readonly params?: Record<string, string>;
  readonly method?: string;
  readonly args?: unknown[];
  readonly expect: readonly string[];
}

const ROWS: readonly Row[] = [
  { name: "host match routes to one host", rule: "host = 10.20.3.3 => host = 10.20.153.10", expect: [a] },
  {
    name: "consumer not matching the when side keeps all",
    rule: "host = 10.20.3.4 => host = 10.20.153.10",
    expect: ALL,
  },
  { name: "suffix wildcard on the then side", rule: "=> host = 10.20.153.*", expect: [a, b] },
  { name: "prefix wildcard", rule: "=> host = *.5", expect: [c] },
  { name: "wildcard in the middle", rule: "=> host = 10.*.10", expect: [a] },
  { name: "bare * matches every provider", rule: "=> host = *", expect: ALL },
  { name: "wildcard on the when side", rule: "host = 10.20.3.* => host = 192.168.1.5", expect: [c] },
  { name: "!= excludes one host", rule: "=> host != 10.20.153.10", expect: [b, c] },
  { name: "!= with a wildcard", rule: "=> host != 10.20.153.*", expect: [c] },
  { name: "comma value list", rule: "=> host = 10.20.153.10,192.168.1.5", expect: [a, c] },
  { name: "!= with a value list", rule: "=> host != 10.20.153.10,192.168.1.5", expect: [b] },
  {
    name: "method with wildcard matches the invoked method",
    rule: "method = find* => host = 10.20.153.11",
    expect: [b],
  },
  {
    name: "method not matching keeps all",
    rule: "method = find* => host = 10.20.153.11",
    method: "save",
    expect: ALL,
  },
  {
    name: "method list",
    rule: "method = find*,list* => host = 10.20.153.11",
    method: "listAll",
    expect: [b],
  },
  {
    name: "method != on a matching method",
    rule: "method != get* => host = 192.168.1.5",
    method: "getUser",
    expect: ALL,
  },
  {
    name: "method != on another method",
    rule: "method != get* => host = 192.168.1.5",
    method: "save",
    expect: [c],
  },
  {
    name: "application of consumer and provider",
    rule: "application = shop => application = beta",
    expect: [b],
  },
  { name: "any URL parameter", rule: "=> region = west", expect: [b, c] },
  { name: "& joins conditions", rule: "=> region = west & application = alpha", expect: [c] },
  {
    name: "mismatch wins over match on one key",
    rule: "=> host = 10.20.153.* & host != 10.20.153.11",
    expect: [a],
  },
  { name: "$param reads the consumer URL", rule: "=> region = $region", expect: [a] },
  { name: "$param of a URL part (path)", rule: "=> path = $path", params: { force: "true" }, expect: ALL },
  {
    name: "$param of a URL part (protocol)",
    rule: "=> protocol = $protocol",
    params: { force: "true" },
    expect: [],
  },
  {
    name: "$param missing from the consumer matches nothing",
    rule: "=> region = $zone",
    params: { force: "true" },
    expect: [],
  },
  {
    name: "$param on the when side is a literal (Java)",
    rule: "application = $application => host = 10.20.153.10",
    expect: ALL,
  },
  { name: "empty right side blocks every provider", rule: "host = 10.20.3.3 =>", expect: [] },
  { name: "false right side blocks every provider", rule: "true => false", expect: [] },
  { name: "empty left side matches every consumer", rule: "=> host = 10.20.153.11", expect: [b] },
  { name: "no arrow: the whole rule is the then side", rule: "host = 10.20.153.11", expect: [b] },
  { name: "force=false: an empty result keeps all", rule: "=> host = 1.1.1.1", expect: ALL },
  {
    name: "force=true: an empty result is empty",
    rule: "=> host = 1.1.1.1",
    params: { force: "true" },
    expect: [],
  },
  {
    name: "enabled=false does nothing",
    rule: "=> host = 10.20.153.10",
    params: { enabled: "false" },
    expect: ALL,
  },
  { name: "absent key with only != passes", rule: "=> zone != x", params: { force: "true" }, expect: ALL },
  { name: "absent key with = fails", rule: "=> zone = x", params: { force: "true" }, expect: [] },
  {
    name: "consumer./provider. prefixes are ignored",
    rule: "consumer.host = 10.20.3.3 => provider.host = 10.20.153.10",
    expect: [a],
  },
  { name: "address key is host:port", rule: "=> address = 192.168.1.5:20881", expect: [c] },
  { name: "port key", rule: "=> port = 20881", expect: [c] },
  {
    name: "arguments[0] matches",
    rule: "arguments[0] = vip* => host = 10.20.153.10",
    args: ["vip-1"],
    expect: [a],
  },
  {
    name: "arguments[0] not matching",
    rule: "arguments[0] = vip* => host = 10.20.153.10",
    args: ["basic"],
    expect: ALL,
  },
  {
    name: "arguments index past the end",
    rule: "arguments[3] = x => host = 10.20.153.10",
    args: ["x"],
    expect: ALL,
  },
  {
    name: "whitespace is free-form",
    rule: "  host=10.20.3.3&method=find*=>host  =  10.20.153.10 ",
    expect: [a],
  },
];

describe("condition router - rule table", () => {
  for (const row of ROWS) {
    it(`condition router - ${row.name}: ${row.rule}`, () => {
      const options: { params?: Record<string, string>; method?: string; args?: unknown[] } = {};
      if (row.params !== undefined) options.params = row.params;
      if (row.method !== undefined) options.method = row.method;
      if (row.args !== undefined) options.args = row.args;
      assert.deepEqual(route(row.rule, options), row.expect);
    });
  }
});

interface BadRow {
  readonly rule: string;
  readonly message: RegExp;
}

const MALFORMED: readonly BadRow[] = [
  { rule: "", message: /condition rule is empty \(expected a rule, e\.g\. host = / },
  { rule: "   ", message: /condition rule is empty/ },
  {
    rule: "= 10.20.3.3 => host = 1.2.3.4",
    message:
      /condition rule "= 10\.20\.3\.3 => host = 1\.2\.3\.4" is malformed: unexpected "=" at index 0 before "10\.20\.3\.3".*expected a key before "="/,
  },
  {
    rule: "host = 10.20.3.3 => host == 1.2.3.4",
    message: /unexpected "==" at index 25 before "1\.2\.3\.4".*expected one of "&", "=", "!=", ","/,
  },
  {
    rule: "host,1.2.3.4 => host = 1.2.3.5",
    message: /unexpected "," at index 4 before "1\.2\.3\.4".*expected "key = value" before ","/,
  },
  { rule: "host = 1.2.3.4 && method = x =>", message: /unexpected "&&" at index 15 before "method"/ },
  { rule: "method = a,,b => host = x", message: /unexpected ",," at index 10 before "b"/ },
  { rule: "=> host ! 10.0.0.1", message: /unexpected "!" at index 8 before "10\.0\.0\.1"/ },
  {
    rule: "consumer.host = 1 => host =! 2",
    message:
      /unexpected "=!" at index 17 before "2" \(index in the rule without its "consumer\."\/"provider\." prefixes: "host = 1 => host =! 2"\)/,
  },
];

describe("condition router - malformed rules", () => {
  for (const row of MALFORMED) {
    it(`condition router - rejects ${JSON.stringify(row.rule)}`, () => {
      assert.throws(
        () => createConditionRouter(ruleUrl(row.rule)),
        (error: unknown) =>
          error instanceof RpcError && error.code === Code.InvalidArgument && row.message.test(error.message),
      );
    });
  }

  it("condition router - a missing rule parameter is an error", () => {
    assert.throws(
      () => createConditionRouter(Url.parse(`condition://0.0.0.0/${SERVICE}?category=routers`)),
      /condition rule is empty/,
    );
  });

  it("condition router - a disabled malformed rule is not parsed (as Java)", () => {
    const router = createConditionRouter(ruleUrl("= x", { enabled: "false" }));
    assert.equal(
      router.route(PROVIDERS, CONSUMER, createInvocation({ service: SERVICE, method: "m" })),
      PROVIDERS,
    );
  });
});

describe("condition router - settings", () => {
  it("condition router - priority comes from the URL, default 0", () => {
    assert.equal(createConditionRouter(ruleUrl("=> host = *")).priority, 0);
    assert.equal(createConditionRouter(ruleUrl("=> host = *", { priority: "7" })).priority, 7);
  });

  it("condition router - runtime=false caches per provider list, consumer URL and method", () => {
    const router = createConditionRouter(ruleUrl("method = find* => host = 10.20.153.11"));
    const find = createInvocation({ service: SERVICE, method: "findUser" });
    const first = router.route(PROVIDERS, CONSUMER, find);
    assert.equal(router.route(PROVIDERS, CONSUMER, find), first);
    assert.deepEqual(first, [B]);
    assert.equal(
      router.route(PROVIDERS, CONSUMER, createInvocation({ service: SERVICE, method: "save" })),
      PROVIDERS,
    );
    // A new provider list is evaluated again.
    assert.deepEqual(router.route([A, C], CONSUMER, find), [A, C]);
  });

  it("condition router - runtime=true evaluates every call", () => {
    const router = createConditionRouter(
      ruleUrl("method = find* => host = 10.20.153.11", { runtime: "true" }),
    );
    const find = createInvocation({ service: SERVICE, method: "findUser" });
    const first = router.route(PROVIDERS, CONSUMER, find);
    const second = router.route(PROVIDERS, CONSUMER, find);
    assert.deepEqual(second, first);
    assert.notEqual(second, first);
  });

  it("condition router - a rule on arguments is evaluated per call even with runtime=false", () => {
    const router = createConditionRouter(ruleUrl("arguments[0] = vip => host = 10.20.153.10"));
    const call = (arg: string) =>
      router.route(PROVIDERS, CONSUMER, createInvocation({ service: SERVICE, method: "find", args: [arg] }));
    assert.deepEqual(call("vip"), [A]);
    assert.deepEqual(call("basic"), PROVIDERS);
  });

  it("condition router - an empty provider list stays empty", () => {
    const router = createConditionRouter(ruleUrl("=> host = *"));
    assert.deepEqual(router.route([], CONSUMER, createInvocation({ service: SERVICE, method: "m" })), []);
  });

  it("condition router - parseConditionRule exposes both sides", () => {
    const rule = parseConditionRule("host = 1.2.3.4 & method != a,b => region = west");
    assert.deepEqual([...rule.when.keys()], ["host", "method"]);
    assert.deepEqual([...(rule.when.get("method")?.mismatches ?? [])], ["a", "b"]);
    assert.deepEqual([...(rule.then?.get("region")?.matches ?? [])], ["west"]);
  });
});
