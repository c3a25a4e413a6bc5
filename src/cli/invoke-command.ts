// `dubbo-ts invoke`: one call to a service, typed by `--types` (a generic $invoke, POJOs as maps
// with a `class` key) or by a contract module (`dubbo-ts gen` output), printing the result.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { DubboApplication } from "../app/index.js";
import { isServiceDefinition } from "../config/service-contract.js";
import { BizError, type JavaType, javaMethodName, type ServiceDefinition, splitList } from "../core/index.js";
import { createCliApplication, parseTarget, type Target } from "./cli-application.js";
import { parseCommandLine } from "./command-line.js";
import { integerFlag, UsageError } from "./flags.js";
import { fromJson, toJsonText } from "./json-values.js";
import { createTerminal } from "./terminal.js";

const INVOKE_USAGE = `usage: dubbo-ts invoke <dubbo://host:port | registry URL> <interface> <method> ['<json args>']
                       (--types <java types> | --contract <module>) [--version v] [--group g] [--timeout ms] [--json]

Calls one method and prints its result. The arguments are a JSON array.

  --types     the Java type of each argument, comma-separated (java.lang.String,int,com.foo.User);
              the call is a generic $invoke and POJOs are JSON objects with a "class" key
  --contract  a module exporting the defineService contract (e.g. written by dubbo-ts gen); the
              method is its entry name, the arguments take the contract's types
  --version   the service version    --group  the service group
  --timeout   ms to wait for the answer (default 3000)
  --json      print {"result": …, "elapsedMs": …} on one line, for scripts
`;

const DEFAULT_TIMEOUT_MS = 3000;

interface Call {
  readonly invoke: (app: DubboApplication, options: Record<string, unknown>) => Promise<unknown>;
}

export async function runInvokeCommand(argv: readonly string[]): Promise<number> {
  const line = parseCommandLine(argv, {
    command: "invoke",
    valued: ["types", "contract", "version", "group", "timeout"],
    switches: ["json"],
  });
  if (line.switches.has("help")) {
    process.stdout.write(INVOKE_USAGE);
    return 0;
  }
  const [address, iface, method, argsText = "[]", ...extra] = line.positionals;
  if (address === undefined || iface === undefined || method === undefined) {
    throw new UsageError(
      "give the address, the interface and the method: dubbo-ts invoke <address> <interface> <method> ['<json args>']",
    );
  }
  if (extra.length > 0)
    throw new UsageError(`unexpected argument "${extra[0]}"; give the arguments as one JSON array`);
  const target = parseTarget(address, "the address");
  const args = parseArgs(argsText);
  const timeoutMs = integerFlag(line.flags, "timeout", DEFAULT_TIMEOUT_MS, {
    min: 1,
    max: 2_147_483_647,
    what: "a number of ms",
  });
  const call = await planCall(line.flags, iface, method, args);
  const terminal = createTerminal(process.stderr);
  const app = await createCliApplication(target);
  try {
    terminal.progress(`calling ${iface}.${method} at ${address} …`);
    const started = performance.now();
    const result = await call
      .invoke(app, referenceOptions(target, line.flags, timeoutMs))
      .finally(() => terminal.progress(""));
    const elapsedMs = Math.round(performance.now() - started);
    return printResult(result, elapsedMs, line.switches.has("json"));
  } catch (error) {
    if (!(error instanceof BizError)) throw error;
    // The first line: a generic call's GenericException carries the Java stack in its message.
    const message = error.message.split("\n")[0];
    process.stderr.write(`dubbo-ts invoke: ${iface}.${method} threw ${error.javaClass}: ${message}\n`);
    return 1;
  } finally {
    await app.stop();
  }
}

function parseArgs(text: string): unknown[] {
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the arguments ${text} are not JSON (${(error as Error).message}); give a JSON array, e.g. '["ann", 3]'`,
    );
  }
  if (!Array.isArray(args))
    throw new UsageError(`the arguments ${text} are not a JSON array; give e.g. '["ann", 3]' or '[]'`);
  return args;
}

function referenceOptions(
  target: Target,
  flags: ReadonlyMap<string, string>,
  timeoutMs: number,
): Record<string, unknown> {
  return {
    ...("provider" in target ? { url: target.provider } : { addressWaitMs: timeoutMs }),
    ...(flags.has("version") ? { version: flags.get("version") } : {}),
    ...(flags.has("group") ? { group: flags.get("group") } : {}),
    timeoutMs,
    retries: 0,
    check: false,
  };
}

async function planCall(
  flags: ReadonlyMap<string, string>,
  iface: string,
  method: string,
  args: unknown[],
): Promise<Call> {
  const types = flags.get("types");
  const contract = flags.get("contract");
  if ((types === undefined) === (contract === undefined)) {
    throw new UsageError(
      "give either --types (the Java type of each argument) or --contract (a contract module), not both or neither",
    );
  }
  if (types !== undefined) {
    const typeList = args.length === 0 && types === "-" ? [] : splitList(types);
    if (typeList.length !== args.length) {
      throw new UsageError(
        `--types names ${typeList.length} type(s) for ${args.length} argument(s); give one Java type per argument (use --types - for none)`,
      );
    }
    return {
      invoke: async (app, options) =>
        (await app.referGeneric(iface, options)).$invoke(method, typeList, args),
    };
  }
  const definition = await contractOf(contract!, iface);
  const [key, declared] = methodOf(definition, method, args.length);
  const typedArgs = args.map((a, i) => fromJson(a, declared.args[i]!));
  return {
    invoke: async (app, options) => {
      const stub = (await app.refer(definition, options)) as unknown as Record<
        string,
        (...a: unknown[]) => Promise<unknown>
      >;
      return stub[key]!(...typedArgs);
    },
  };
}

async function contractOf(module: string, iface: string): Promise<ServiceDefinition> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(resolve(module)).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = module.endsWith(".ts")
      ? " (a .ts module needs a TypeScript loader: compile it, or run node --import tsx)"
      : "";
    throw new UsageError(`cannot load --contract ${module}: ${(error as Error).message}${hint}`);
  }
  const definitions = Object.values(exports).filter(isServiceDefinition);
  const found = definitions.find((d) => d.interfaceName === iface);
  if (found === undefined) {
    throw new UsageError(
      `--contract ${module} has no contract for ${iface}; it has ${definitions.map((d) => d.interfaceName).join(", ") || "none"}`,
    );
  }
  return found;
}

/** The entry by its key, or by its Java name when exactly one overload takes that many arguments. */
function methodOf(
  definition: ServiceDefinition,
  method: string,
  arity: number,
): [string, { readonly args: readonly JavaType[] }] {
  const entries = Object.entries(definition.methods);
  const byKey = entries.find(([key, m]) => key === method && m.args.length === arity);
  if (byKey !== undefined) return byKey;
  const overloads = entries.filter(
    ([key, m]) => javaMethodName(key, m) === method && m.args.length === arity,
  );
  if (overloads.length === 1) return overloads[0]!;
  const keys = entries.map(([key]) => key).join(", ");
  throw new UsageError(
    overloads.length === 0
      ? `${definition.interfaceName} has no method ${method} taking ${arity} argument(s) in the contract; its entries: ${keys}`
      : `${definition.interfaceName}.${method} has several overloads taking ${arity} argument(s); name the entry instead: ${overloads.map(([k]) => k).join(", ")}`,
  );
}

function printResult(result: unknown, elapsedMs: number, json: boolean): number {
  if (json) {
    process.stdout.write(`${toJsonText({ result: result ?? null, elapsedMs })}\n`);
    return 0;
  }
  const terminal = createTerminal(process.stdout);
  terminal.line(`${terminal.bold("result:")} ${toJsonText(result ?? null, 2)}`);
  terminal.line(terminal.dim(`elapsed: ${elapsedMs} ms`));
  return 0;
}
