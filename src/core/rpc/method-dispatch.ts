/**
 * How a provider finds the contract entry a call is for and refuses arguments of the wrong type,
 * as Java dispatches: by method name and parameter types. Built once per exported contract; the
 * same table serves every invoker that runs a user's implementation (in process or in workers).
 */
import { Code } from "../error/code.js";
import { RpcError } from "../error/rpc-error.js";
import { type JavaType, parameterDescriptor } from "../java/java-type.js";
import { checkJavaValue } from "../java/java-value-check.js";
import type { Invocation } from "./invocation.js";
import { javaMethodName, type ServiceDefinition } from "./service-definition.js";

/** One overload of a Java method: the contract entry that declares it. */
export interface ContractMethod {
  /** The contract's key for it: the implementation's function of that name runs it. */
  readonly key: string;
  readonly parameterTypes: readonly JavaType[];
  readonly descriptor: string;
  /** `sayHello(java.lang.String, int)`, for messages. */
  readonly signature: string;
  /** Parameters declared more specifically than Object, the ones whose arguments are checked, with their paths. */
  readonly checked: readonly CheckedParameter[];
}

interface CheckedParameter {
  readonly index: number;
  /** `args[1]`, made once: a call builds no string unless its argument is wrong. */
  readonly path: string;
}

function contractMethod(key: string, name: string, parameterTypes: readonly JavaType[]): ContractMethod {
  const checked: CheckedParameter[] = [];
  parameterTypes.forEach((t, index) => {
    if (t.kind !== "object") checked.push({ index, path: `args[${index}]` });
  });
  return {
    key,
    parameterTypes,
    descriptor: parameterDescriptor(parameterTypes),
    signature: `${name}(${parameterTypes.map((t) => t.name).join(", ")})`,
    checked,
  };
}

/**
 * The overload a call names: by the parameter types it carries (the contract's own array when the
 * protocol matched the request's descriptor, else compared by descriptor), or the only one when
 * the call carries no types.
 */
function selectOverload(overloads: readonly ContractMethod[], inv: Invocation): ContractMethod | undefined {
  const types = inv.parameterTypes;
  for (const method of overloads) if (method.parameterTypes === types) return method;
  if (overloads.length === 1 && types.length === 0) return overloads[0];
  const descriptor = parameterDescriptor(types);
  for (const method of overloads) if (method.descriptor === descriptor) return method;
  return undefined;
}

function wrongArgument(
  service: string,
  method: ContractMethod,
  args: readonly unknown[],
): RpcError | undefined {
  for (const { index, path } of method.checked) {
    const wrong = checkJavaValue(args[index], method.parameterTypes[index]!, path);
    if (wrong !== undefined) {
      return new RpcError(
        `${service}.${method.signature}: ${wrong.path} is ${wrong.actual}, not ${wrong.expected}; ` +
          "the provider did not run the method (send the argument as the contract declares it)",
        Code.InvalidArgument,
      );
    }
  }
  return undefined;
}

export interface MethodDispatch {
  /** The contract's Java method names, for messages. */
  readonly names: readonly string[];
  /**
   * The overload `inv` calls, with its arguments checked against the declared Java types; or the
   * error to answer instead (no such method or overload, wrong argument count or type).
   */
  resolve(inv: Invocation): ContractMethod | RpcError;
}

export function createMethodDispatch(definition: ServiceDefinition): MethodDispatch {
  const service = definition.interfaceName;
  const byName = new Map<string, ContractMethod[]>();
  for (const [key, method] of Object.entries(definition.methods)) {
    const name = javaMethodName(key, method);
    const overloads = byName.get(name) ?? [];
    overloads.push(contractMethod(key, name, method.args));
    byName.set(name, overloads);
  }
  const names = [...byName.keys()];
  return {
    names,
    resolve(inv) {
      const overloads = byName.get(inv.method);
      if (overloads === undefined) {
        return new RpcError(
          `${service} has no method "${inv.method}" (methods: ${names.join(", ") || "none"})`,
          Code.Unimplemented,
        );
      }
      const method = selectOverload(overloads, inv);
      if (method === undefined) {
        return new RpcError(
          `${service} has no method ${inv.method}(${inv.parameterTypes.map((t) => t.name).join(", ")}) ` +
            `(it has ${overloads.map((m) => m.signature).join(", ")})`,
          Code.Unimplemented,
        );
      }
      if (inv.args.length !== method.parameterTypes.length) {
        return new RpcError(
          `${service}.${method.signature} takes ${method.parameterTypes.length} argument(s), the call carried ${inv.args.length}`,
          Code.InvalidArgument,
        );
      }
      return wrongArgument(service, method, inv.args) ?? method;
    },
  };
}
