import {
  Code,
  DEFAULT_SCRIPT_ROUTER_TIMEOUT_MS,
  type Invocation,
  type Invoker,
  RpcError,
  type Url,
} from "../../core/index.js";
import type { Router, RouterFactory } from "../contracts.js";
import { type RouterLog, ruleOf, silentLog } from "./router-log.js";
import { ScriptSandbox } from "./script-sandbox.js";

/** Engine names Java's `ScriptEngineManager` maps to its JavaScript engine. */
const JAVASCRIPT_TYPES = new Set(["javascript", "js", "ecmascript", "nashorn"]);

/**
 * Dubbo's script router (`script://0.0.0.0/com.foo.BarService?type=javascript&rule=<encoded>`):
 * the rule is JavaScript whose completion value is the list of invokers to keep. It sees
 * `invokers` (each with `url` and Java-style `getUrl().getHost()`, `getParameter(k)`, …),
 * `invocation` (`methodName`, `arguments`, `attachments`, `getMethodName()`, …) and `context`
 * (the consumer `url` and the attachments); `java.util.ArrayList`, `list.size()/get(i)/add(x)` and
 * `"a".equals(b)` exist so rules written for Java consumers run unchanged.
 *
 * The rule runs in a `node:vm` sandbox without `require`, `process` or timers, and each evaluation
 * is limited to `script.timeout` ms (rule URL parameter, default
 * {@link DEFAULT_SCRIPT_ROUTER_TIMEOUT_MS}). When it throws, runs too long or returns something
 * else than a subset of the given invokers, the router keeps the whole list and warns, as Java does.
 * Other parameters, with Java's defaults: `priority` (0), `force`, `runtime` (false; evaluated on
 * every call here). An empty rule, an unsupported `type` or a rule that does not compile throws
 * `RpcError` (InvalidArgument) when the router is created.
 */
export function createScriptRouterFactory(log: RouterLog = silentLog): RouterFactory {
  return (ruleUrl) => createScriptRouter(ruleUrl, log);
}

export function createScriptRouter(ruleUrl: Url, log: RouterLog = silentLog): Router {
  const type = ruleUrl.string("type", "javascript");
  if (!JAVASCRIPT_TYPES.has(type.toLowerCase())) {
    throw new RpcError(
      `script router ${ruleUrl.toString()} has type="${type}", which is not supported (use type=javascript)`,
      Code.InvalidArgument,
    );
  }
  const rule = ruleOf(ruleUrl);
  if (rule === undefined || rule.trim() === "") {
    throw new RpcError(
      `script router ${ruleUrl.toString()} has no rule (set rule=<URL-encoded JavaScript returning the invokers to keep>)`,
      Code.InvalidArgument,
    );
  }
  const timeoutMs = ruleUrl.number("script.timeout", DEFAULT_SCRIPT_ROUTER_TIMEOUT_MS);
  if (!(timeoutMs > 0)) {
    throw new RpcError(
      `script router ${ruleUrl.toString()} has script.timeout=${ruleUrl.get("script.timeout")} (expected a positive number of ms)`,
      Code.InvalidArgument,
    );
  }
  let sandbox: ScriptSandbox;
  try {
    sandbox = new ScriptSandbox(rule, timeoutMs);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new RpcError(
      `script router rule ${abbreviate(rule)} does not compile: ${detail} (fix the rule at ${ruleUrl.toString()})`,
      Code.InvalidArgument,
      { cause },
    );
  }
  const urlJson = new WeakMap<Url, string>();
  const toJson = (url: Url): string => {
    let json = urlJson.get(url);
    if (json === undefined) {
      json = urlToJson(url);
      urlJson.set(url, json);
    }
    return json;
  };

  return {
    name: `script(${abbreviate(rule)})`,
    priority: ruleUrl.number("priority", 0),
    url: ruleUrl,
    route(invokers, consumerUrl, inv) {
      if (invokers.length === 0) return invokers;
      let invokersJson = "[";
      for (let i = 0; i < invokers.length; i++) {
        const invoker = invokers[i] as Invoker;
        invokersJson += `${i === 0 ? "" : ","}{"url":${toJson(invoker.url)},"available":${invoker.isAvailable()}}`;
      }
      invokersJson += "]";
      const outcome = sandbox.run({
        invokersJson,
        invocationJson: invocationToJson(inv),
        consumerUrlJson: toJson(consumerUrl),
      });
      if (outcome.ok) {
        const kept: Invoker[] = [];
        for (const index of outcome.kept) {
          const invoker = invokers[index];
          if (invoker !== undefined) kept.push(invoker);
        }
        return kept;
      }
      log.warn(
        `script router rule ${abbreviate(rule)} ${outcome.reason} while routing ${consumerUrl.serviceKey}.${inv.method}; keeping all ${invokers.length} providers (fix the rule at ${ruleUrl.toString()})`,
      );
      return invokers;
    },
  };
}

function abbreviate(rule: string): string {
  const oneLine = rule.replace(/\s+/g, " ").trim();
  return JSON.stringify(oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine);
}

function urlToJson(url: Url): string {
  return JSON.stringify({
    protocol: url.protocol,
    host: url.host,
    port: url.port,
    address: url.address,
    path: url.path,
    serviceKey: url.serviceKey,
    parameters: Object.fromEntries(url.params),
    text: url.toString(),
  });
}

/** Arguments and attachments as JSON data; what JSON cannot carry (bigint, bytes, cycles) is simplified. */
function invocationToJson(inv: Invocation): string {
  const data = { service: inv.service, method: inv.method, args: inv.args, attachments: inv.attachments };
  try {
    return JSON.stringify(data, jsonSafe);
  } catch {
    return JSON.stringify({ service: inv.service, method: inv.method, args: [], attachments: {} });
  }
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return Array.from(value);
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return value;
}
