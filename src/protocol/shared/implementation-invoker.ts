import {
  Code,
  type InvokeFn,
  type Invoker,
  invokeInProviderContext,
  isInProviderContextOf,
  RpcError,
  type ServiceDefinition,
  type Url,
} from "../../core/index.js";

/**
 * The invoker of a service's implementation: `call` runs inside the provider `RpcContext` (opened
 * here when no context filter did); once destroyed (unexported), calls fail with `Unavailable`.
 */
export function implementationInvoker(url: Url, definition: ServiceDefinition, call: InvokeFn): Invoker {
  const localAddress = url.address;
  let destroyed = false;
  return {
    url,
    definition,
    invoke(inv) {
      if (destroyed) {
        return Promise.reject(
          new RpcError(
            `${definition.interfaceName}.${inv.method}: the service was unexported at ${localAddress}`,
            Code.Unavailable,
          ),
        );
      }
      return isInProviderContextOf(inv) ? call(inv) : invokeInProviderContext(inv, localAddress, call);
    },
    isAvailable: () => !destroyed,
    async destroy() {
      destroyed = true;
    },
  };
}
