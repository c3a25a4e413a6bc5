import {
  parseRuleYaml,
  ROUTER_RULE_HEAD_FIELDS,
  type RouterRuleHead,
  routerRuleHead,
  ruleError,
  ruleInteger,
  ruleList,
  ruleMap,
  ruleString,
} from "./rule-yaml.js";

/** Java's `DefaultRouteConditionSubSetWeight`: a destination's weight when it names none. */
const DEFAULT_DESTINATION_WEIGHT = 100;

/** One v3.1 destination: a `then` expression and its share of the calls. */
interface ConditionDestination {
  readonly match: string;
  readonly weight: number;
}

/** One v3.1 condition: consumers matching `from` go to one of `to`, picked by weight. */
export interface MultiDestinationCondition {
  readonly from: string;
  readonly to: readonly ConditionDestination[];
}

/**
 * A condition rule as dubbo-admin writes it to `{key}.condition-router` (Java's
 * `ConditionRuleParser`): `configVersion: v3.1` has `conditions` of `{from, to}` mappings; any
 * other (or no) version has `conditions` as `when => then` strings.
 */
export type ConditionRouterRule = RouterRuleHead &
  (
    | { readonly version: "v2.7"; readonly conditions: readonly string[] }
    | { readonly version: "v3.1"; readonly conditions: readonly MultiDestinationCondition[] }
  ) & {
    /** Fields accepted because dubbo-admin writes them but that Java 3.3.6 ignores (so we do too). */
    readonly ignored: readonly string[];
  };

/** Fields of a v3.1 condition that Java 3.3.6's `MultiDestCondition` does not read. */
const IGNORED_CONDITION_FIELDS = ["priority", "force", "ratio", "trafficDisable"] as const;

/**
 * Parses a condition rule's YAML; throws `RpcError` (InvalidArgument) naming `where` and the
 * field at fault. Java refuses versions above v3.1 and rules without conditions the same way.
 */
export function parseConditionRouterRule(text: string, where: string): ConditionRouterRule {
  const rule = ruleMap(parseRuleYaml(text, where), where, [...ROUTER_RULE_HEAD_FIELDS, "conditions"]);
  const head = routerRuleHead(rule, where);
  const version = head.configVersion?.toLowerCase();
  const conditions = ruleList(rule.conditions, `${where}: conditions`);
  if (conditions.length === 0) throw ruleError(where, "the rule has no conditions (add a conditions: list)");
  if (version?.startsWith("v3.1")) {
    const ignored = new Set<string>();
    const parsed = conditions.map((c, i) => parseMultiDestination(c, `${where}: conditions[${i}]`, ignored));
    return { ...head, version: "v3.1", conditions: parsed, ignored: [...ignored] };
  }
  if (version !== undefined && version.localeCompare("v3.1") > 0) {
    throw ruleError(where, `configVersion ${head.configVersion} is not supported (use v3.1, or v2.7 / none)`);
  }
  const strings = conditions.map((c, i) => {
    const text = ruleString(c, `${where}: conditions[${i}]`);
    if (text === undefined || text.trim() === "") throw ruleError(`${where}: conditions[${i}]`, "is empty");
    return text;
  });
  return { ...head, version: "v2.7", conditions: strings, ignored: [] };
}

function parseMultiDestination(
  value: unknown,
  where: string,
  ignored: Set<string>,
): MultiDestinationCondition {
  const condition = ruleMap(value, where, ["from", "to", ...IGNORED_CONDITION_FIELDS]);
  for (const field of IGNORED_CONDITION_FIELDS) if (condition[field] !== undefined) ignored.add(field);
  if (condition.from === undefined)
    throw ruleError(where, 'has no "from" (e.g. from: { match: method=sayHello })');
  const from = ruleMap(condition.from, `${where}.from`, ["match"]);
  if (condition.to === undefined) throw ruleError(where, 'has no "to" (e.g. to: [{ match: port=20880 }])');
  const to = ruleList(condition.to, `${where}.to`).map((item, i) => {
    const destination = ruleMap(item, `${where}.to[${i}]`, ["match", "weight"]);
    return {
      match: ruleString(destination.match, `${where}.to[${i}].match`) ?? "",
      weight: ruleInteger(destination.weight, `${where}.to[${i}].weight`, DEFAULT_DESTINATION_WEIGHT),
    };
  });
  return { from: ruleString(from.match, `${where}.from.match`) ?? "", to };
}
