import type { JavaType } from "../core/index.js";
import type { QosAnswer, QosSession } from "./qos-session.js";
import type { QosMethodChoice, QosSite } from "./qos-site.js";

const ok = (text: string): QosAnswer => ({ text, status: 200 });

const INVOKE_USAGE =
  'Please input method name, eg: \r\ninvoke XxxService.xxxMethod(1234, "abcd", {"prop" : "value"})\r\n' +
  'invoke com.xxx.XxxService.xxxMethod(1234, "abcd", {"prop" : "value"})';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `Class.getSimpleName()` of a Java type: `String`, `int`, `String[]`, `User`. */
function simpleName(type: JavaType): string {
  if (type.kind === "array" && type.element !== undefined) return `${simpleName(type.element)}[]`;
  return type.name.slice(Math.max(type.name.lastIndexOf("."), type.name.lastIndexOf("$")) + 1);
}

const SCALAR_KINDS: Readonly<Record<string, readonly string[]>> = {
  string: ["string", "char", "enum", "date", "time", "bigdecimal", "biginteger"],
  number: ["byte", "short", "int", "long", "float", "double", "bigdecimal", "biginteger"],
  boolean: ["boolean"],
};

/**
 * Whether a JSON argument can be the value of a parameter of `type`, as Java's `InvokeTelnet`
 * decides between overloads: null for any non-primitive, a scalar for a scalar type of its kind,
 * a list for a collection or array, an object for a class, map or `Object` (a `class` key must name it).
 */
function fits(value: unknown, type: JavaType): boolean {
  if (value === null) return !type.primitive;
  const scalar = SCALAR_KINDS[typeof value];
  if (scalar !== undefined) return scalar.includes(type.kind);
  if (Array.isArray(value)) return ["list", "set", "array", "object"].includes(type.kind);
  const named = (value as { class?: unknown }).class;
  if (typeof named === "string") return named === type.name;
  return ["class", "map", "object"].includes(type.kind);
}

async function call(site: QosSite, service: string, choice: QosMethodChoice, values: unknown[]) {
  const used = `Use default service ${service}.\r\n`;
  let lookup: Awaited<ReturnType<QosSite["invoke"]>>;
  try {
    lookup = await site.invoke(service, choice.key, values);
  } catch (error) {
    return ok(`Failed to invoke method ${choice.javaName}, cause: ${errorText(error)}`);
  }
  if (lookup.found === "no service") return ok(`${used}No such service ${service}`);
  if (lookup.found === "no method") return ok(`${used}No such method ${choice.key} in service ${service}`);
  const json = JSON.stringify(lookup.value.value, (_k, v: unknown) =>
    typeof v === "bigint" ? v.toString() : v,
  );
  return ok(`${used}result: ${json ?? "null"}\r\nelapsed: ${Math.round(lookup.value.elapsedMs)} ms.`);
}

/**
 * `invoke Service.method(json, …)`: Java's `result:` (JSON) and `elapsed: N ms.` lines. When
 * several overloads take the arguments, it lists them (`Methods:` then `1. name(String)`…) and
 * keeps them in the session for `select`.
 */
export async function invoke(
  site: QosSite,
  args: readonly string[],
  session: QosSession,
): Promise<QosAnswer> {
  const text = args.join(" ").trim();
  if (text === "") return ok(INVOKE_USAGE);
  const open = text.indexOf("(");
  if (open < 0 || !text.endsWith(")")) return ok("Invalid parameters, format: service.method(args)");
  const target = text.slice(0, open).trim();
  const dot = target.lastIndexOf(".");
  if (dot <= 0) return ok("Name the service: invoke XxxService.xxxMethod(args)");
  const service = target.slice(0, dot);
  const method = target.slice(dot + 1);
  let values: unknown[];
  try {
    values = JSON.parse(`[${text.slice(open + 1, -1)}]`) as unknown[];
  } catch (error) {
    return ok(`Invalid json argument, cause: ${errorText(error)}`);
  }
  const used = `Use default service ${service}.\r\n`;
  const lookup = site.methods(service, method, values.length);
  if (lookup.found === "no service") return ok(`${used}No such service ${service}`);
  const named = lookup.found === "service" ? lookup.value : [];
  const choices =
    named.length > 1 ? named.filter((m) => m.parameterTypes.every((t, i) => fits(values[i], t))) : named;
  if (choices.length === 0) return ok(`${used}No such method ${method} in service ${service}`);
  if (choices.length === 1) return call(site, service, choices[0]!, values);
  session.pendingInvoke = { service, values, choices };
  const list = choices.map(
    (m, i) => `${i + 1}. ${m.javaName}(${m.parameterTypes.map(simpleName).join(",")})\r\n`,
  );
  return ok(
    `Methods:\r\n${list.join("")}Please use the select command to select the method you want to invoke. eg: select 1`,
  );
}

/** `select N`: runs the last ambiguous `invoke` of this session with its N-th listed method. */
export function select(
  site: QosSite,
  args: readonly string[],
  session: QosSession,
): Promise<QosAnswer> | QosAnswer {
  const index = args[0];
  if (index === undefined)
    return ok("Please input the index of the method you want to invoke, eg: \r\n select 1");
  const pending = session.pendingInvoke;
  if (pending === undefined) return ok("Please use the invoke command first.");
  const n = /^\d+$/.test(index) ? Number(index) : 0;
  if (n < 1 || n > pending.choices.length)
    return ok(`Illegal index ,please input select 1~${pending.choices.length}`);
  return call(site, pending.service, pending.choices[n - 1]!, pending.values);
}
