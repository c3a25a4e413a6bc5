import { matchGlob } from "./glob-pattern.js";
import { matchIpExpression } from "./ip-expression.js";
import { type RuleMap, ruleError, ruleList, ruleMap, ruleString } from "./rule-yaml.js";

/**
 * One of dubbo-admin's string matchers (Java's `StringMatch`): `exact`, `prefix`, `regex` (the
 * whole value must match, as Java's `String.matches`), `wildcard` (`*` or the value itself),
 * `empty` (absent or ""), `noempty` (present and not ""). The first one set decides, in that order.
 */
export interface StringMatch {
  readonly exact?: string;
  readonly prefix?: string;
  readonly regex?: RegExp;
  readonly wildcard?: string;
  readonly empty?: string;
  readonly noempty?: string;
}

const STRING_MATCH_FIELDS = ["exact", "prefix", "regex", "wildcard", "empty", "noempty"] as const;

export function parseStringMatch(value: unknown, where: string): StringMatch {
  const map = ruleMap(value, where, STRING_MATCH_FIELDS);
  const text = (key: (typeof STRING_MATCH_FIELDS)[number]) => ruleString(map[key], `${where}.${key}`);
  const regex = text("regex");
  const fields = Object.fromEntries(
    (["exact", "prefix", "wildcard", "empty", "noempty"] as const)
      .map((key) => [key, text(key)] as const)
      .filter(([, v]) => v !== undefined),
  );
  if (Object.keys(fields).length === 0 && regex === undefined) {
    throw ruleError(where, `sets no matcher (use one of ${STRING_MATCH_FIELDS.join(", ")})`);
  }
  return { ...fields, ...(regex === undefined ? {} : { regex: compileWhole(regex, `${where}.regex`) }) };
}

function compileWhole(pattern: string, where: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (cause) {
    throw ruleError(where, `"${pattern}" is not a regular expression`, cause);
  }
}

export function matchString(match: StringMatch, input: string | undefined): boolean {
  if (match.exact !== undefined && input !== undefined) return input === match.exact;
  if (match.prefix !== undefined && input !== undefined) return input.startsWith(match.prefix);
  if (match.regex !== undefined && input !== undefined) return match.regex.test(input);
  if (match.wildcard !== undefined && input !== undefined)
    return input === match.wildcard || match.wildcard === "*";
  if (match.empty !== undefined) return input === undefined || input === "";
  if (match.noempty !== undefined) return input !== undefined && input !== "";
  return false;
}

/** Java's `ListStringMatch`: `oneof: [StringMatch…]`, any one matching. */
export type ListStringMatch = readonly StringMatch[];

export function parseListStringMatch(value: unknown, where: string): ListStringMatch {
  const map = ruleMap(value, where, ["oneof"]);
  return ruleList(map.oneof, `${where}.oneof`).map((item, i) =>
    parseStringMatch(item, `${where}.oneof[${i}]`),
  );
}

export function matchListString(match: ListStringMatch, input: string | undefined): boolean {
  return match.some((m) => matchString(m, input));
}

/** Java's `AddressMatch`: `cird` (a CIDR or IP expression), `wildcard` (glob), `exact`. */
export interface AddressMatch {
  readonly cird?: string;
  readonly wildcard?: string;
  readonly exact?: string;
}

export function parseAddressMatch(value: unknown, where: string): AddressMatch {
  const map = ruleMap(value, where, ["cird", "wildcard", "exact"]);
  const out: Record<string, string> = {};
  for (const key of ["cird", "wildcard", "exact"] as const) {
    const text = ruleString(map[key], `${where}.${key}`);
    if (text !== undefined) out[key] = text;
  }
  if (Object.keys(out).length === 0)
    throw ruleError(where, "sets no matcher (use one of cird, wildcard, exact)");
  return out;
}

export function matchAddress(match: AddressMatch, input: string | undefined): boolean {
  if (input === undefined) return false;
  if (match.cird !== undefined) {
    const [host = "", port = "0"] = input.split(":");
    if (input === match.cird || matchIpExpression(match.cird, host, Number(port))) return true;
  }
  if (match.wildcard !== undefined) {
    return match.wildcard === "0.0.0.0" || match.wildcard === "*" || matchGlob(match.wildcard, input);
  }
  return match.exact !== undefined && input === match.exact;
}

/** A `key` and a string matcher for its value (Java's tag and configurator `ParamMatch`). */
export interface ParamMatch {
  readonly key: string;
  readonly value: StringMatch;
}

export function parseParamMatch(value: unknown, where: string): ParamMatch {
  const map: RuleMap = ruleMap(value, where, ["key", "value"]);
  const key = ruleString(map.key, `${where}.key`);
  if (key === undefined || key === "") throw ruleError(where, "has no key");
  return { key, value: parseStringMatch(map.value, `${where}.value`) };
}
