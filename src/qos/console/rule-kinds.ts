/** The rule kinds dubbo-admin writes into the config center, by their key suffix. */
export const RULE_SUFFIXES = {
  override: ".configurators",
  condition: ".condition-router",
  tag: ".tag-router",
} as const;
export type RuleKind = keyof typeof RULE_SUFFIXES;
