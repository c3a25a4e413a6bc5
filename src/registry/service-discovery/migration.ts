import type * as Yaml from "yaml";
import { Code, loadOnFirstUse, RpcError, type Url } from "../../core/index.js";

/** The YAML parser loads with the first migration rule: most applications are sent none. */
const yaml = loadOnFirstUse<typeof Yaml>("yaml");

/**
 * How a Dubbo 3 consumer finds providers (Java's `MigrationStep`): per interface only, per
 * application only, or both with the application-level list preferred once it is big enough.
 */
type MigrationStep = "FORCE_INTERFACE" | "APPLICATION_FIRST" | "FORCE_APPLICATION";

const STEPS: readonly MigrationStep[] = ["FORCE_INTERFACE", "APPLICATION_FIRST", "FORCE_APPLICATION"];

/** Java's consumer URL keys (`migration.step`, `migration.threshold`, `migration.force`). */
const MIGRATION_STEP_KEY = "migration.step";
const MIGRATION_THRESHOLD_KEY = "migration.threshold";
const MIGRATION_FORCE_KEY = "migration.force";
/** Java's default step and threshold (`dubbo.application.migration.threshold`). */
const DEFAULT_MIGRATION_STEP: MigrationStep = "APPLICATION_FIRST";
const DEFAULT_MIGRATION_THRESHOLD = 0;

/** The config-center group of migration rules: `/dubbo/config/DUBBO_SERVICEDISCOVERY_MIGRATION/{app}.migration`. */
export const MIGRATION_RULE_GROUP = "DUBBO_SERVICEDISCOVERY_MIGRATION";

export interface Migration {
  readonly step: MigrationStep;
  /** The application-level list wins when its size / the interface list's size reaches this. */
  readonly threshold: number;
  /**
   * A change of rule to a `FORCE_` step switches even when the new level's list fails the
   * threshold against the old one's (Java's `force`, default false: the change is refused).
   */
  readonly force: boolean;
}

interface RulePart {
  readonly step?: MigrationStep;
  readonly threshold?: number;
  readonly force?: boolean;
}

function stepOf(value: unknown, where: string): MigrationStep | undefined {
  if (value === undefined || value === null) return undefined;
  const step = String(value);
  if (!(STEPS as readonly string[]).includes(step)) {
    throw new RpcError(`${where}: step "${step}" is not one of ${STEPS.join(", ")}`, Code.InvalidArgument);
  }
  return step as MigrationStep;
}

function thresholdOf(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const threshold = Number(value);
  if (Number.isNaN(threshold)) {
    throw new RpcError(`${where}: threshold "${String(value)}" is not a number`, Code.InvalidArgument);
  }
  return threshold;
}

function forceOf(value: unknown, where: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new RpcError(`${where}: force "${String(value)}" is not true or false`, Code.InvalidArgument);
}

function partOf(raw: unknown, where: string): RulePart {
  const record = (raw ?? {}) as Record<string, unknown>;
  const step = stepOf(record.step, where);
  const threshold = thresholdOf(record.threshold, where);
  const force = forceOf(record.force, where);
  return {
    ...(step === undefined ? {} : { step }),
    ...(threshold === undefined ? {} : { threshold }),
    ...(force === undefined ? {} : { force }),
  };
}

/** Java's `URL.getDisplayServiceKey`: `interface:version`, or the interface alone. */
function displayServiceKey(url: Url): string {
  const version = url.get("version");
  return version === undefined || version === ""
    ? url.serviceInterface
    : `${url.serviceInterface}:${version}`;
}

/**
 * What a migration rule (Java's YAML: `key`, `step`, `threshold`, `force`, and per-service `interfaces`
 * and per-provider-application `applications` entries with a `serviceKey`) says for this consumer:
 * its interface's entry first, then its providers' applications', then the rule's own.
 */
export function ruleFor(text: string, consumerUrl: Url, providerApps: readonly string[]): RulePart {
  let rule: Record<string, unknown>;
  try {
    rule = (yaml().parse(text) ?? {}) as Record<string, unknown>;
  } catch (cause) {
    throw new RpcError("the migration rule is not YAML", Code.InvalidArgument, { cause });
  }
  const entries = (key: string): Array<Record<string, unknown>> =>
    Array.isArray(rule[key]) ? (rule[key] as Array<Record<string, unknown>>) : [];
  const service = displayServiceKey(consumerUrl);
  const specific = [
    ...entries("interfaces").filter((e) => e.serviceKey === service),
    ...providerApps.flatMap((app) => entries("applications").filter((e) => e.serviceKey === app)),
  ].map((e) => partOf(e, `migration rule entry ${String(e.serviceKey)}`));
  const own = partOf(rule, "migration rule");
  return {
    ...own,
    ...Object.assign({}, ...[...specific].reverse()),
  };
}

/** The step, threshold and force: the rule's, else the consumer URL's keys, else Java's defaults. */
export function migrationOf(consumerUrl: Url, rule: RulePart = {}): Migration {
  const step =
    rule.step ??
    stepOf(consumerUrl.get(MIGRATION_STEP_KEY), `${MIGRATION_STEP_KEY}`) ??
    DEFAULT_MIGRATION_STEP;
  const configured =
    rule.threshold ?? thresholdOf(consumerUrl.get(MIGRATION_THRESHOLD_KEY), MIGRATION_THRESHOLD_KEY);
  const threshold = configured !== undefined && configured >= 0 ? configured : DEFAULT_MIGRATION_THRESHOLD;
  const force = rule.force ?? forceOf(consumerUrl.get(MIGRATION_FORCE_KEY), MIGRATION_FORCE_KEY) ?? false;
  return { step, threshold, force };
}

/**
 * Java's `DefaultMigrationAddressComparator.shouldMigrate`: move from the old level's provider list
 * to the new level's when the new one has providers and the old one has none, or when their ratio
 * (new / old) reaches the threshold.
 */
export function shouldMigrate(newSize: number, oldSize: number, threshold: number): boolean {
  if (newSize === 0) return false;
  if (oldSize === 0) return true;
  return newSize / oldSize >= threshold;
}
