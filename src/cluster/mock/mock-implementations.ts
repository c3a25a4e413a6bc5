import { Code, RpcError } from "../../core/index.js";
import type { MockImplementation } from "../contracts.js";

/**
 * The name `mock=true|default` asks for: Java's `<Interface>Mock` class (for
 * `com.foo.DemoService`, `com.foo.DemoServiceMock`). `default`, `true` and that class name all
 * mean the same implementation.
 */
export function defaultMockName(serviceInterface: string): string {
  return `${serviceInterface}Mock`;
}

function canonicalName(serviceInterface: string, name: string | undefined): string {
  const trimmed = name?.trim() ?? "";
  const lower = trimmed.toLowerCase();
  return trimmed === "" || lower === "default" || lower === "true"
    ? defaultMockName(serviceInterface)
    : trimmed;
}

/**
 * The mock implementations one application (or one reference) knows, by interface and name: the
 * stand-ins `mock=true|default` (the interface's own, `<Interface>Mock`) and `mock=<name>` call
 * when the providers fail (Java instantiates these classes by name; here they are registered).
 */
export class MockImplementations {
  readonly #byKey = new Map<string, MockImplementation>();

  /**
   * Registers `implementation` for `serviceInterface` under `name` (default: the interface's own
   * mock). Each method must be a function; registering a name twice is an error.
   */
  register(
    serviceInterface: string,
    implementation: MockImplementation,
    options: { readonly name?: string; readonly methods?: readonly string[] } = {},
  ): void {
    const name = canonicalName(serviceInterface, options.name);
    const what = `mock implementation "${name}" of ${serviceInterface}`;
    if (typeof implementation !== "object" || implementation === null) {
      throw new RpcError(
        `${what} must be an object of methods, got ${String(implementation)}`,
        Code.InvalidArgument,
      );
    }
    for (const [method, fn] of Object.entries(implementation)) {
      if (typeof fn !== "function") {
        throw new RpcError(`${what}: ${method} must be a function, got ${typeof fn}`, Code.InvalidArgument);
      }
      if (options.methods !== undefined && !options.methods.includes(method)) {
        throw new RpcError(
          `${what}: ${method} is not a method of the contract (methods: ${options.methods.join(", ") || "none"})`,
          Code.InvalidArgument,
        );
      }
    }
    const key = `${serviceInterface}#${name}`;
    if (this.#byKey.has(key)) {
      throw new RpcError(`${what} is already registered`, Code.AlreadyExists);
    }
    this.#byKey.set(key, implementation);
  }

  /** The implementation `mock=<name>` names for `serviceInterface` (`default` for its own), if registered. */
  find(serviceInterface: string, name: string): MockImplementation | undefined {
    return this.#byKey.get(`${serviceInterface}#${canonicalName(serviceInterface, name)}`);
  }
}
