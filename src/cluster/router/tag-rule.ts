import {
  parseRuleYaml,
  ROUTER_RULE_HEAD_FIELDS,
  type RouterRuleHead,
  routerRuleHead,
  ruleError,
  ruleList,
  ruleMap,
  ruleString,
  ruleStrings,
} from "./rule-yaml.js";
import { type ParamMatch, parseParamMatch } from "./string-match.js";

/** One tag of a tag rule: providers by address (`addresses`) or, in v3.0, by their parameters (`match`). */
interface TagDefinition {
  readonly name: string;
  readonly addresses: readonly string[];
  /** v3.0: every parameter match must hold for a provider to carry the tag. */
  readonly match: readonly ParamMatch[] | undefined;
}

export type TagRouterRule = RouterRuleHead & { readonly tags: readonly TagDefinition[] };

/**
 * A tag rule as dubbo-admin writes it to `{provider application}.tag-router` (Java's
 * `TagRuleParser`): `tags` of `{name, addresses}` and, with `configVersion: v3.0`, `{name, match}`
 * where `match` is a list of `{key, value: StringMatch}` read against each provider's parameters.
 * Throws `RpcError` (InvalidArgument) naming `where` and the field at fault.
 */
export function parseTagRouterRule(text: string, where: string): TagRouterRule {
  const rule = ruleMap(parseRuleYaml(text, where), where, [...ROUTER_RULE_HEAD_FIELDS, "tags"]);
  const head = routerRuleHead(rule, where);
  const v30 = head.configVersion?.startsWith("v3.0") ?? false;
  const tags = ruleList(rule.tags, `${where}: tags`).map((value, i) => {
    const at = `${where}: tags[${i}]`;
    const tag = ruleMap(value, at, ["name", "addresses", "match"]);
    const name = ruleString(tag.name, `${at}.name`);
    if (name === undefined || name === "") throw ruleError(at, "has no name");
    if (tag.match !== undefined && !v30) {
      throw ruleError(
        at,
        `uses match, which Java reads only with configVersion: v3.0 (the rule says ${head.configVersion ?? "none"})`,
      );
    }
    const match =
      tag.match === undefined
        ? undefined
        : ruleList(tag.match, `${at}.match`).map((m, j) => parseParamMatch(m, `${at}.match[${j}]`));
    return { name, addresses: ruleStrings(tag.addresses, `${at}.addresses`), match };
  });
  if (tags.length === 0) throw ruleError(where, "the rule has no tags (add a tags: list)");
  return { ...head, tags };
}
