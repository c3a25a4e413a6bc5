import { Code, RpcError, type ServiceDefinition, settingMethodNames } from "../core/index.js";
import { invalidSetting, isRecord, joinPath } from "./errors.js";
import type { Given } from "./fields.js";
import {
  type EffectiveMethodSettings,
  type MethodSettings,
  type ResolvedMethodConfig,
  readMethods,
  resolveMethod,
} from "./method-config.js";
import { closestName } from "./suggest.js";

const JAVA_CLASS_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;

/** A value made by `defineService` (checked by shape, so it works across package copies). */
export function isServiceDefinition(value: unknown): value is ServiceDefinition {
  return isRecord(value) && typeof value.interfaceName === "string" && isRecord(value.methods);
}

/**
 * The Java interface of a service or reference: from `interface`, from `definition`, or both when
 * they agree. One of them is required.
 */
export function resolveInterface(
  iface: string | undefined,
  definition: unknown,
  path: string,
): { interface: string; definition?: ServiceDefinition } {
  if (definition !== undefined && !isServiceDefinition(definition)) {
    throw invalidSetting(joinPath(path, "definition"), definition, "a contract made by defineService(...)");
  }
  if (iface !== undefined && !JAVA_CLASS_NAME.test(iface)) {
    throw invalidSetting(
      joinPath(path, "interface"),
      iface,
      "a Java interface name, e.g. org.apache.dubbo.demo.DemoService",
    );
  }
  if (definition === undefined) {
    if (iface === undefined) {
      throw new RpcError(
        `${joinPath(path, "interface")} is required: give the Java interface name (e.g. org.apache.dubbo.demo.DemoService) or a definition from defineService(...)`,
        Code.InvalidArgument,
      );
    }
    return { interface: iface };
  }
  if (iface !== undefined && iface !== definition.interfaceName) {
    throw invalidSetting(
      joinPath(path, "interface"),
      iface,
      `"${definition.interfaceName}", the interface of the given definition (or leave interface out)`,
    );
  }
  return { interface: definition.interfaceName, definition };
}

/**
 * Reads `methods` and resolves each over the service's or reference's own settings. A method the
 * definition lacks is an error, with the closest name.
 */
export function resolveMethods(
  value: unknown,
  path: string,
  inherited: EffectiveMethodSettings,
  definition: ServiceDefinition | undefined,
): Readonly<Record<string, ResolvedMethodConfig>> {
  const out: Record<string, ResolvedMethodConfig> = {};
  if (value === undefined || value === null) return Object.freeze(out);
  const methodsPath = joinPath(path, "methods");
  const read: Readonly<Record<string, Given<MethodSettings>>> = readMethods(value, methodsPath);
  const known = definition === undefined ? undefined : settingMethodNames(definition);
  for (const [name, given] of Object.entries(read)) {
    if (known !== undefined && !known.includes(name)) {
      const guess = closestName(name, known);
      throw new RpcError(
        `${joinPath(methodsPath, name)}: ${definition?.interfaceName} has no method "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; its methods: ${known.join(", ")}`,
        Code.InvalidArgument,
      );
    }
    out[name] = resolveMethod(name, given, inherited);
  }
  return Object.freeze(out);
}

/** Builds a frozen id-keyed record without a prototype, so no id can collide with `toString`. */
export function frozenRecord<T>(entries: Iterable<readonly [string, T]>): Readonly<Record<string, T>> {
  const out: Record<string, T> = Object.create(null);
  for (const [key, value] of entries) out[key] = value;
  return Object.freeze(out);
}
