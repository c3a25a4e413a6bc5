import { Code, RpcError, type Url } from "../../core/index.js";

/**
 * Where a provider registers (Java 3's `register-mode`): `interface` (the Dubbo 2 way,
 * `/dubbo/{interface}/providers`), `instance` (application-level: `/services/{app}`), or `all`,
 * Java 3's default, both.
 */
export type RegisterMode = "all" | "interface" | "instance";

const REGISTER_MODE_KEY = "register-mode";
const DEFAULT_REGISTER_MODE: RegisterMode = "all";
const MODES: readonly RegisterMode[] = ["all", "interface", "instance"];

/** The register mode a registry URL carries (default `all`); throws on an unknown one. */
export function registerModeOf(registryUrl: Url): RegisterMode {
  const mode = registryUrl.string(REGISTER_MODE_KEY, DEFAULT_REGISTER_MODE);
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new RpcError(
      `registry ${registryUrl.address}: register-mode=${mode} is not one of ${MODES.join(", ")} (Java's dubbo.application.register-mode)`,
      Code.InvalidArgument,
    );
  }
  return mode as RegisterMode;
}

export function registersInterfaces(mode: RegisterMode): boolean {
  return mode !== "instance";
}

export function registersInstance(mode: RegisterMode): boolean {
  return mode !== "interface";
}
