import {
  type AddressMatch,
  type ListStringMatch,
  matchAddress,
  matchListString,
  matchString,
  type ParamMatch,
  parseAddressMatch,
  parseListStringMatch,
  parseParamMatch,
  ruleList,
  ruleMap,
} from "../../cluster/index.js";
import type { Url } from "../../core/index.js";

/**
 * The `match` of a v3.0 configurator item (Java's `ConditionMatch`): every part given must hold.
 * `address` is the address the rule targets (the consumer's own host on the consumer side, the
 * provider's host on the provider side), `providerAddress` the provider URL's `host:port`,
 * `service` its `group/interface:version`, `app` its `application`, `param` its parameters.
 */
export interface ConditionMatch {
  readonly address?: AddressMatch;
  readonly providerAddress?: AddressMatch;
  readonly service?: ListStringMatch;
  readonly app?: ListStringMatch;
  readonly param?: readonly ParamMatch[];
}

export function parseConditionMatch(value: unknown, where: string): ConditionMatch {
  const map = ruleMap(value, where, ["address", "providerAddress", "service", "app", "param"]);
  return {
    ...(map.address === undefined ? {} : { address: parseAddressMatch(map.address, `${where}.address`) }),
    ...(map.providerAddress === undefined
      ? {}
      : { providerAddress: parseAddressMatch(map.providerAddress, `${where}.providerAddress`) }),
    ...(map.service === undefined ? {} : { service: parseListStringMatch(map.service, `${where}.service`) }),
    ...(map.app === undefined ? {} : { app: parseListStringMatch(map.app, `${where}.app`) }),
    ...(map.param === undefined
      ? {}
      : {
          param: ruleList(map.param, `${where}.param`).map((p, i) =>
            parseParamMatch(p, `${where}.param[${i}]`),
          ),
        }),
  };
}

export function conditionMatches(match: ConditionMatch, host: string, url: Url): boolean {
  if (match.address !== undefined && !matchAddress(match.address, host)) return false;
  if (match.providerAddress !== undefined && !matchAddress(match.providerAddress, url.address)) return false;
  if (match.service !== undefined && !matchListString(match.service, url.serviceKey)) return false;
  if (match.app !== undefined && !matchListString(match.app, url.get("application"))) return false;
  return (match.param ?? []).every((p) => matchString(p.value, url.get(p.key)));
}
