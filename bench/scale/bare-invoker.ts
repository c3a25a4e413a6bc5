// The directory benches' invoker and protocol that hold only a provider's URL, so their figures
// are the registry's and the directory's alone.
import type { Invoker, Protocol, Url } from "../../src/core/index.js";

/**
 * An invoker that holds only its URL; its methods are on the prototype because under tsx every
 * function made per object costs ~250 bytes (esbuild's `__name` gives it a dictionary of
 * properties), which is the bench's, not the directory's.
 */
class BareInvoker implements Invoker {
  readonly url: Url;
  constructor(url: Url) {
    this.url = url;
  }
  isAvailable(): boolean {
    return true;
  }
  invoke(): Promise<never> {
    return Promise.reject(new Error("the bare bench protocol does not call"));
  }
  async destroy(): Promise<void> {}
}

/** A `dubbo` protocol whose references are `BareInvoker`s. */
export const bareProtocol: Protocol = {
  name: "dubbo",
  defaultPort: 20880,
  export: () => Promise.reject(new Error("the bare bench protocol only refers")),
  refer: async (url) => new BareInvoker(url),
  destroy: async () => {},
};
