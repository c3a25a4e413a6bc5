import { types } from "node:util";
import vm from "node:vm";

/**
 * The sandbox a script router rule runs in: a fresh V8 context per router with no Node globals
 * (`require`, `process`, timers), code generation from strings disabled (so `constructor.constructor`
 * tricks cannot compile code), and nothing that can schedule work for later. Only strings cross
 * into the context; results cross back as a JSON string, so no sandbox object is ever touched by
 * code outside the time limit.
 *
 * Why no promises: the vm `timeout` only covers synchronous code. A promise callback would run
 * later on the application's own microtask queue, without a limit, and Node's
 * `microtaskMode: "afterEvaluate"` (which would bound it) aborts the whole process when the timeout
 * fires inside a microtask (async hook stack corruption, seen on Node 20). So the context loses
 * every global that can queue a job or block ({@link REMOVED_GLOBALS}) and rules using the syntax
 * that creates promises (`async`, `await`, `import()`) are refused when the router is created.
 */

/** Globals that queue jobs (Promise, FinalizationRegistry, WebAssembly), block (Atomics) or print. */
const REMOVED_GLOBALS = [
  "Promise",
  "FinalizationRegistry",
  "WeakRef",
  "WebAssembly",
  "Atomics",
  "SharedArrayBuffer",
  "console",
] as const;

/** Syntax that creates promises without naming a global. */
const ASYNC_SYNTAX = /\b(async|await|import)\b/;

const LOCKDOWN = `(function (g) { ${JSON.stringify(REMOVED_GLOBALS)}.forEach(function (n) { delete g[n]; }); })(this);`;

/** Builds the rule's globals (`invokers`, `invocation`, `context`) from `__input`, with Java-style accessors. */
const PRELUDE = `(function (g) {
  "use strict";
  var input = JSON.parse(g.__input);
  function hidden(target, name, value) {
    Object.defineProperty(target, name, { value: value, configurable: true, writable: true, enumerable: false });
  }
  hidden(Array.prototype, "size", function () { return this.length; });
  hidden(Array.prototype, "get", function (i) { return this[i]; });
  hidden(Array.prototype, "add", function (x) { this.push(x); return true; });
  hidden(Array.prototype, "isEmpty", function () { return this.length === 0; });
  hidden(Array.prototype, "toArray", function () { return this.slice(); });
  hidden(String.prototype, "equals", function (o) { return String(this) === String(o); });
  function List() { return []; }
  g.java = { util: { ArrayList: List, LinkedList: List, List: List } };
  function urlView(u) {
    if (u === null) return null;
    return {
      protocol: u.protocol, host: u.host, port: u.port, address: u.address, path: u.path,
      parameters: u.parameters, serviceKey: u.serviceKey,
      getProtocol: function () { return this.protocol; },
      getHost: function () { return this.host; },
      getIp: function () { return this.host; },
      getPort: function () { return this.port; },
      getAddress: function () { return this.address; },
      getPath: function () { return this.path; },
      getServiceKey: function () { return this.serviceKey; },
      getServiceInterface: function () { return this.parameters["interface"] || this.path; },
      getParameters: function () { return this.parameters; },
      getParameter: function (k, d) {
        var v = this.parameters[k];
        return v === undefined || v === "" ? (d === undefined ? null : d) : v;
      },
      getMethodParameter: function (m, k, d) {
        var v = this.parameters[m + "." + k];
        return v === undefined || v === "" ? this.getParameter(k, d) : v;
      },
      toString: function () { return u.text; }
    };
  }
  var all = input.invokers.map(function (i) {
    return {
      url: urlView(i.url), available: i.available,
      getUrl: function () { return this.url; },
      isAvailable: function () { return this.available; }
    };
  });
  var inv = input.invocation;
  g.invokers = all.slice();
  g.invocation = {
    serviceName: inv.service, methodName: inv.method, method: inv.method, arguments: inv.args,
    attachments: inv.attachments,
    getServiceName: function () { return this.serviceName; },
    getMethodName: function () { return this.methodName; },
    getArguments: function () { return this.arguments; },
    getAttachments: function () { return this.attachments; },
    getAttachment: function (k, d) { var v = this.attachments[k]; return v === undefined ? (d === undefined ? null : d) : v; }
  };
  g.context = {
    url: urlView(input.consumerUrl), attachments: inv.attachments,
    getUrl: function () { return this.url; },
    getAttachments: function () { return this.attachments; },
    getAttachment: function (k) { var v = this.attachments[k]; return v === undefined ? null : v; }
  };
  g.__collect = function (r) {
    if (r === null || r === undefined) return JSON.stringify({ error: "returned " + r + " instead of a list of invokers" });
    var list = Array.isArray(r) ? r : (typeof r.toArray === "function" ? r.toArray() : null);
    if (!Array.isArray(list)) return JSON.stringify({ error: "returned a " + typeof r + " instead of a list of invokers" });
    var out = [];
    for (var i = 0; i < list.length; i++) {
      var at = all.indexOf(list[i]);
      if (at < 0) return JSON.stringify({ error: "returned an element (#" + i + ") that is not one of the given invokers" });
      out.push(at);
    }
    return JSON.stringify(out);
  };
  g.__describe = function (e) {
    if (e !== null && typeof e === "object" && typeof e.message === "string") return String((e.name || "Error") + ": " + e.message);
    return String(e);
  };
})(this);`;

let preludeScript: vm.Script | undefined;

/** The outcome of one rule evaluation: kept indices into the input list, or why it failed. */
export type SandboxOutcome =
  | { readonly ok: true; readonly kept: readonly number[] }
  | { readonly ok: false; readonly reason: string };

export interface SandboxInput {
  readonly invokersJson: string;
  readonly invocationJson: string;
  readonly consumerUrlJson: string;
}

/** Bound on the sandbox's own steps (prelude, result collection), which are not the rule's time. */
const FRAMEWORK_STEP_LIMIT_MS = 1000;

/** One rule compiled for one context. Evaluations are synchronous and bounded by `timeoutMs` each. */
export class ScriptSandbox {
  readonly #rule: vm.Script;
  readonly #timeoutMs: number;
  readonly #sandbox: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  readonly #context: vm.Context;

  /** Throws a `SyntaxError` when the rule does not compile or uses `async`, `await` or `import`. */
  constructor(source: string, timeoutMs: number) {
    const asyncWord = ASYNC_SYNTAX.exec(source)?.[1];
    if (asyncWord !== undefined) {
      throw new SyntaxError(
        `"${asyncWord}" is not allowed: a rule must decide synchronously (no async, await or import)`,
      );
    }
    this.#rule = new vm.Script(source, { filename: "script-router-rule.js" });
    this.#timeoutMs = timeoutMs;
    this.#context = vm.createContext(this.#sandbox, {
      name: "dubbo-ts script router",
      codeGeneration: { strings: false, wasm: false },
    });
    // The lockdown is our code, not the rule's: a busy machine must not make a valid rule fail to compile.
    vm.runInContext(LOCKDOWN, this.#context, { timeout: Math.max(timeoutMs, FRAMEWORK_STEP_LIMIT_MS) });
  }

  run(input: SandboxInput): SandboxOutcome {
    const options = { timeout: this.#timeoutMs, displayErrors: false };
    // The prelude and the result collection are our own code: a busy machine must not charge their
    // time to the rule, but they still run bounded.
    const frameworkOptions = {
      timeout: Math.max(this.#timeoutMs, FRAMEWORK_STEP_LIMIT_MS),
      displayErrors: false,
    };
    this.#sandbox.__input = `{"invokers":${input.invokersJson},"invocation":${input.invocationJson},"consumerUrl":${input.consumerUrlJson}}`;
    try {
      preludeScript ??= new vm.Script(PRELUDE, { filename: "script-router-prelude.js" });
      preludeScript.runInContext(this.#context, frameworkOptions);
    } catch (error) {
      return { ok: false, reason: `its environment could not be prepared (${this.#describe(error)})` };
    }
    try {
      this.#sandbox.__result = this.#rule.runInContext(this.#context, options);
    } catch (error) {
      return { ok: false, reason: this.#describe(error) };
    }
    try {
      const collected: unknown = vm.runInContext("__collect(__result)", this.#context, frameworkOptions);
      if (typeof collected !== "string") return { ok: false, reason: "its result could not be read" };
      const parsed: unknown = JSON.parse(collected);
      if (Array.isArray(parsed)) return { ok: true, kept: parsed.filter((n) => Number.isInteger(n)) };
      const error = (parsed as { error?: unknown } | null)?.error;
      return { ok: false, reason: typeof error === "string" ? error : "its result could not be read" };
    } catch (error) {
      return { ok: false, reason: `its result could not be read (${this.#describe(error)})` };
    } finally {
      this.#sandbox.__result = undefined;
      this.#sandbox.__input = undefined;
    }
  }

  /**
   * A thrown value may come from the sandbox and carry getters or be a Proxy; it is only ever read
   * through own data properties or, for other objects, described inside the sandbox within the limit.
   */
  #describe(error: unknown): string {
    if (typeof error !== "object" || error === null) return `threw ${String(error)}`;
    if (types.isProxy(error)) return "threw a Proxy";
    const code = ownString(error, "code");
    if (code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return `ran past its time limit of ${this.#timeoutMs} ms`;
    const message = ownString(error, "message");
    if (message !== undefined) return `threw ${message}`;
    try {
      this.#sandbox.__thrown = error;
      const text: unknown = vm.runInContext("__describe(__thrown)", this.#context, {
        timeout: this.#timeoutMs,
        displayErrors: false,
      });
      return typeof text === "string" ? `threw ${text}` : "threw a value that cannot be described";
    } catch {
      return "threw a value that cannot be described";
    } finally {
      this.#sandbox.__thrown = undefined;
    }
  }
}

function ownString(target: object, key: string): string | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  return typeof descriptor?.value === "string" ? descriptor.value : undefined;
}
