import { Code, RpcError, type Url } from "../../core/index.js";
import { matchGlobWithParam } from "./glob-pattern.js";

/** The values one key must match (`=`) and must not match (`!=`). */
export interface MatchPair {
  readonly matches: ReadonlySet<string>;
  readonly mismatches: ReadonlySet<string>;
}

/**
 * A parsed `when => then` rule. An empty `when` matches every consumer; an undefined `then` blocks
 * every provider (an empty right side, or `false`).
 */
export interface ConditionRule {
  readonly when: ReadonlyMap<string, MatchPair>;
  readonly then: ReadonlyMap<string, MatchPair> | undefined;
}

/** Java's `ROUTE_PATTERN`: an optional run of separators, then one token. */
const ROUTE_PATTERN = /([&!=,]*)\s*([^&!=,\s]+)/g;

const EXAMPLE = "e.g. host = 10.20.153.10 & method = find*,list* => host = 10.20.153.11";

/**
 * Parses a condition rule exactly as Dubbo 2.7's `ConditionRouter` does, including its quirks
 * (`consumer.`/`provider.` prefixes are dropped everywhere, whitespace between tokens is ignored).
 * Throws `RpcError` (InvalidArgument) naming the rule, the index in the rule and what was expected.
 */
export function parseConditionRule(rule: string | undefined): ConditionRule {
  if (rule === undefined || rule.trim() === "") {
    throw new RpcError(`condition rule is empty (expected a rule, ${EXAMPLE})`, Code.InvalidArgument);
  }
  const normalized = rule.replaceAll("consumer.", "").replaceAll("provider.", "");
  const arrow = normalized.indexOf("=>");
  const whenText = arrow < 0 ? "" : normalized.slice(0, arrow);
  const thenText = arrow < 0 ? normalized : normalized.slice(arrow + 2);
  const thenOffset = arrow < 0 ? 0 : arrow + 2;
  const whenRule = whenText.trim();
  const thenRule = thenText.trim();
  const context = { rule, normalized };
  const when =
    whenRule === "" || whenRule === "true"
      ? new Map<string, MatchPair>()
      : parseSide(whenRule, offsetOfTrimmed(whenText, 0), context);
  const then =
    thenRule === "" || thenRule === "false"
      ? undefined
      : parseSide(thenRule, offsetOfTrimmed(thenText, thenOffset), context);
  return { when, then };
}

/**
 * One side of a condition (`method = find* & port = 20880`) as Java 3's `MultiDestConditionRouter`
 * parses each `from`/`to` match of a v3.1 rule: no `consumer.`/`provider.` stripping; blank gives
 * an empty condition.
 */
export function parseConditionSide(text: string): ReadonlyMap<string, MatchPair> {
  const side = text.trim();
  return side === ""
    ? new Map()
    : parseSide(side, offsetOfTrimmed(text, 0), { rule: text, normalized: text });
}

function offsetOfTrimmed(text: string, base: number): number {
  return base + (text.length - text.trimStart().length);
}

interface MutablePair {
  readonly matches: Set<string>;
  readonly mismatches: Set<string>;
}

function parseSide(
  side: string,
  offset: number,
  context: { readonly rule: string; readonly normalized: string },
): Map<string, MatchPair> {
  const condition = new Map<string, MutablePair>();
  let pair: MutablePair | undefined;
  // Java keeps pointing at the last value set across `&key`, so `a = 1 & b , 2` adds 2 to a's values.
  let values: Set<string> | undefined;
  for (const match of side.matchAll(ROUTE_PATTERN)) {
    const separator = match[1] ?? "";
    const content = match[2] ?? "";
    const fail = (expected: string): never => {
      throw malformed(context, separator, content, offset + (match.index ?? 0), expected);
    };
    switch (separator) {
      case "":
        // A key that starts the expression; a repeated key starts over, as Java's `put` does.
        pair = { matches: new Set(), mismatches: new Set() };
        condition.set(content, pair);
        break;
      case "&": {
        const existing = condition.get(content);
        pair = existing ?? { matches: new Set(), mismatches: new Set() };
        if (existing === undefined) condition.set(content, pair);
        break;
      }
      case "=":
        if (pair === undefined) fail(`a key before "=", ${EXAMPLE}`);
        values = (pair as MutablePair).matches;
        values.add(content);
        break;
      case "!=":
        if (pair === undefined) fail(`a key before "!=", e.g. host != 10.20.153.10`);
        values = (pair as MutablePair).mismatches;
        values.add(content);
        break;
      case ",":
        if (values === undefined || values.size === 0)
          fail(`"key = value" before ",", e.g. method = find*,list*`);
        (values as Set<string>).add(content);
        break;
      default:
        fail(`one of "&", "=", "!=", "," between a key and its values, ${EXAMPLE}`);
    }
  }
  return condition;
}

function malformed(
  context: { readonly rule: string; readonly normalized: string },
  separator: string,
  content: string,
  index: number,
  expected: string,
): RpcError {
  const normalizedNote =
    context.normalized === context.rule
      ? ""
      : ` (index in the rule without its "consumer."/"provider." prefixes: "${context.normalized}")`;
  return new RpcError(
    `condition rule "${context.rule}" is malformed: unexpected "${separator}" at index ${index} before "${content}"${normalizedNote}; expected ${expected}`,
    Code.InvalidArgument,
  );
}

/** Java's `MatchPair.isMatch`: mismatches win over matches; a pair with neither matches nothing. */
export function matchPair(pair: MatchPair, value: string, param: Url | undefined): boolean {
  const { matches, mismatches } = pair;
  if (mismatches.size > 0) {
    for (const pattern of mismatches) if (matchGlobWithParam(pattern, value, param)) return false;
    if (matches.size === 0) return true;
  }
  for (const pattern of matches) if (matchGlobWithParam(pattern, value, param)) return true;
  return false;
}
