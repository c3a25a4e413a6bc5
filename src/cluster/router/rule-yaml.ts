import type * as Yaml from "yaml";
import { Code, loadOnFirstUse, RpcError } from "../../core/index.js";

/** The YAML parser loads with the first rule: an application that is sent none never pays for it. */
const yaml = loadOnFirstUse<typeof Yaml>("yaml");

/** A YAML mapping of a rule, read with the rule's location for every error. */
export type RuleMap = Readonly<Record<string, unknown>>;

/** `where: message`, as an InvalidArgument error (what every rule parser throws). */
export function ruleError(where: string, message: string, cause?: unknown): RpcError {
  return new RpcError(`${where}: ${message}`, Code.InvalidArgument, cause === undefined ? {} : { cause });
}

/** Parses YAML text (a rule node's content) into a value; bad YAML names the line and column. */
export function parseRuleYaml(text: string, where: string): unknown {
  try {
    return yaml().parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    throw ruleError(where, `the rule is not valid YAML (${detail})`, cause);
  }
}

/**
 * `value` as a mapping whose keys are all in `known`; anything else is refused by name, because a
 * misspelt field (`force` as `froce`) would otherwise be ignored silently.
 */
export function ruleMap(value: unknown, where: string, known: readonly string[]): RuleMap {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw ruleError(where, `expected a mapping (key: value lines), got ${describe(value)}`);
  }
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw ruleError(
      where,
      `unknown field ${unknown.map((k) => `"${k}"`).join(", ")} (known: ${known.join(", ")})`,
    );
  }
  return value as RuleMap;
}

/** `value` as a list (absent: empty). */
export function ruleList(value: unknown, where: string): readonly unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw ruleError(where, `expected a list ("- item" lines), got ${describe(value)}`);
  return value;
}

/** A list of scalars as strings, as Java's `String.valueOf` reads them. */
export function ruleStrings(value: unknown, where: string): string[] {
  return ruleList(value, where).map((item, i) => {
    if (item !== null && typeof item === "object")
      throw ruleError(`${where}[${i}]`, "expected a plain value");
    return String(item);
  });
}

/** A scalar as a string, or undefined when absent. */
export function ruleString(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object") throw ruleError(where, `expected a plain value, got ${describe(value)}`);
  return String(value);
}

/** Java's `Boolean.parseBoolean(value.toString())`, refusing what is neither true nor false. */
export function ruleBoolean(value: unknown, where: string, fallback: boolean): boolean {
  const text = ruleString(value, where);
  if (text === undefined) return fallback;
  const lower = text.toLowerCase();
  if (lower !== "true" && lower !== "false") throw ruleError(where, `expected true or false, got "${text}"`);
  return lower === "true";
}

/** An integer (Java's `Integer.parseInt`), or `fallback` when absent. */
export function ruleInteger(value: unknown, where: string, fallback: number): number {
  const text = ruleString(value, where);
  if (text === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(text.trim())) throw ruleError(where, `expected an integer, got "${text}"`);
  return Number(text);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a mapping" : `"${String(value)}"`;
}

/** The fields every router rule has (Java's `AbstractRouterRule`), with Java's defaults. */
export interface RouterRuleHead {
  readonly configVersion: string | undefined;
  readonly scope: string | undefined;
  readonly key: string | undefined;
  readonly enabled: boolean;
  readonly force: boolean;
  /** Java's default for rules from the config center: true. */
  readonly runtime: boolean;
  readonly priority: number;
}

export const ROUTER_RULE_HEAD_FIELDS = [
  "configVersion",
  "scope",
  "key",
  "enabled",
  "force",
  "runtime",
  "priority",
  "dynamic",
  "valid",
] as const;

export function routerRuleHead(rule: RuleMap, where: string): RouterRuleHead {
  return {
    configVersion: ruleString(rule.configVersion, `${where}: configVersion`),
    scope: ruleString(rule.scope, `${where}: scope`),
    key: ruleString(rule.key, `${where}: key`),
    enabled: ruleBoolean(rule.enabled, `${where}: enabled`, true),
    force: ruleBoolean(rule.force, `${where}: force`, false),
    runtime: ruleBoolean(rule.runtime, `${where}: runtime`, true),
    priority: ruleInteger(rule.priority, `${where}: priority`, 0),
  };
}
