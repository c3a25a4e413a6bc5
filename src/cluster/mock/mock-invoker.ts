import {
  BizError,
  Code,
  type Invocation,
  type Invoker,
  javaUrlDecode,
  RpcError,
  type RpcResult,
  resultOf,
  type Url,
} from "../../core/index.js";
import type { ClusterContext } from "../contracts.js";
import { asMockFailure, callIdlMock, idlMockReturn } from "./idl-mock.js";
import { defaultMockName } from "./mock-implementations.js";
import { type MockSetting, parseMockSetting, parseMockValue } from "./mock-value.js";

/**
 * Answers calls locally from a `mock` setting, as Java's MockInvoker: `return …` gives a value,
 * `throw` an error (`throw com.foo.SomeException` a business error of that class), anything else
 * calls the mock implementation the application registered for the interface. Settings are read
 * from `url` per method (`sayHello.mock`, then `mock`) and parsed once.
 */
export class MockInvoker implements Invoker {
  readonly url: Url;
  readonly #context: ClusterContext;
  readonly #settings = new Map<string, MockSetting | undefined>();

  constructor(url: Url, context: ClusterContext) {
    this.url = url;
    this.#context = context;
  }

  isAvailable(): boolean {
    return true;
  }

  async destroy(): Promise<void> {}

  setting(method: string): MockSetting | undefined {
    if (!this.#settings.has(method)) {
      this.#settings.set(method, parseMockSetting(this.#decoded(method, this.url.methodGet(method, "mock"))));
    }
    return this.#settings.get(method);
  }

  /**
   * Java decodes the mock value once more (`URL.decode`: `+` is a space), so the override
   * `mock=force:return+null` that dubbo-admin writes means `force:return null`.
   */
  #decoded(method: string, value: string | undefined): string | undefined {
    if (value === undefined) return undefined;
    try {
      return javaUrlDecode(value);
    } catch (cause) {
      throw new RpcError(
        `mock=${value} for ${this.url.serviceKey} method ${method} is not validly URL-encoded (the mock value is URL-decoded once more, as Java does: write % as %25 and a plus sign as %2B)`,
        Code.InvalidArgument,
        { cause },
      );
    }
  }

  async invoke(inv: Invocation): Promise<RpcResult> {
    const setting = this.setting(inv.method);
    const where = `${this.url.serviceKey} method ${inv.method}`;
    if (setting === undefined) {
      throw new RpcError(`no mock is configured for ${where} (set mock=...)`, Code.FailedPrecondition);
    }
    const action = setting.action;
    switch (action.kind) {
      case "return": {
        const value = this.#returnValue(action.text, inv, where);
        return inv.idl === undefined ? resultOf(value) : idlMockReturn(inv.idl, action.text, value, where);
      }
      case "throw":
        if (action.javaClass === undefined) {
          throw new RpcError(`mocked exception for service degradation (${where})`, Code.Unknown);
        }
        throw new BizError(`mocked ${action.javaClass} for ${where}`, { javaClass: action.javaClass });
      case "implementation":
        return this.#callImplementation(action.name, inv, where);
    }
  }

  #returnValue(text: string, inv: Invocation, where: string): unknown {
    try {
      return parseMockValue(text, inv.returnType);
    } catch (error) {
      throw new RpcError(
        `mock "return ${text}" for ${where} is not a valid value (${(error as Error).message})`,
        Code.InvalidArgument,
        { cause: error },
      );
    }
  }

  async #callImplementation(name: string, inv: Invocation, where: string): Promise<RpcResult> {
    const iface = this.url.serviceInterface;
    const impl = this.#context.mockImplementation?.(iface, name);
    const isDefault = name === "default";
    const what = isDefault
      ? `the default mock of ${iface} (${defaultMockName(iface)})`
      : `mock implementation "${name}"`;
    if (impl === undefined) {
      const register = isDefault
        ? "app.registerMock(contract, implementation) or the reference option mockImplementation"
        : `app.registerMock(contract, implementation, { name: "${name}" })`;
      throw new RpcError(
        `${what} is not registered, so ${where} cannot be mocked (register it with ${register}, or use mock=return ... / mock=throw ...)`,
        Code.FailedPrecondition,
      );
    }
    if (inv.idl !== undefined) return callIdlMock(impl, inv.idl, inv, what);
    const fn = impl[inv.method];
    if (typeof fn !== "function") {
      throw new RpcError(`${what} has no method ${inv.method} (${where})`, Code.Unimplemented);
    }
    try {
      return resultOf(await fn.apply(impl, [...inv.args]));
    } catch (error) {
      throw asMockFailure(error);
    }
  }
}
