import {
  type Invocation,
  type Invoker,
  isRetryable,
  RpcError,
  type RpcResult,
  type Url,
  withAttachments,
} from "../../core/index.js";
import { type Cluster, type ClusterContext, type Directory, INVOCATION_NEED_MOCK } from "../contracts.js";
import { MockInvoker } from "./mock-invoker.js";
import type { MockSetting } from "./mock-value.js";

/**
 * The wrapper around every cluster invoker (Java's MockClusterInvoker): with no `mock` setting it
 * passes through; `mock=force:…` never calls the providers; any other setting is used only when
 * the cluster fails for a non-business reason (a provider's BizError is its answer). Providers
 * with the `mock` protocol in the directory serve mock calls before the local mock setting.
 */
export class MockClusterInvoker implements Invoker {
  readonly url: Url;
  readonly #directory: Directory;
  readonly #invoker: Invoker;
  readonly #local: MockInvoker;

  constructor(directory: Directory, invoker: Invoker, context: ClusterContext) {
    this.url = directory.url;
    this.#directory = directory;
    this.#invoker = invoker;
    this.#local = new MockInvoker(directory.url, context);
  }

  isAvailable(): boolean {
    return this.#invoker.isAvailable();
  }

  destroy(): Promise<void> {
    return this.#invoker.destroy();
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    // Without a mock setting the cluster's own promise is returned as is (no extra promise layer).
    let setting: MockSetting | undefined;
    try {
      setting = this.#local.setting(inv.method);
    } catch (error) {
      return Promise.reject(error);
    }
    if (setting === undefined) return this.#invoker.invoke(inv);
    if (setting.force) return this.#mock(inv, undefined);
    return this.#invokeOrMock(inv);
  }

  async #invokeOrMock(inv: Invocation): Promise<RpcResult> {
    try {
      return await this.#invoker.invoke(inv);
    } catch (error) {
      // A business answer, or the caller's own cancel: neither is a failure to mock.
      if (!isRetryable(error)) throw error;
      return this.#mock(inv, error);
    }
  }

  async #mock(inv: Invocation, failure: unknown): Promise<RpcResult> {
    const invoker = this.#mockProvider(inv) ?? this.#local;
    try {
      return await invoker.invoke(inv);
    } catch (error) {
      // A business answer, or the caller's own cancel: neither is a failure to mock.
      if (!isRetryable(error)) throw error;
      const mockError = RpcError.from(error);
      const because =
        failure === undefined ? "" : ` after the call failed with: ${RpcError.from(failure).rawMessage}`;
      throw new RpcError(
        `mock for ${this.url.serviceKey} method ${inv.method} failed${because}; mock error: ${mockError.rawMessage}`,
        mockError.code,
        { cause: error },
      );
    }
  }

  /** A `mock://` provider from the directory, when the router chain offers one for mock calls. */
  #mockProvider(inv: Invocation): Invoker | undefined {
    try {
      const listed = this.#directory.list(withAttachments(inv, { [INVOCATION_NEED_MOCK]: "true" }));
      return listed.find((i) => i.url.protocol === "mock");
    } catch {
      return undefined;
    }
  }
}

/** Wraps a cluster so every invoker it builds honours `mock` (applied once, for every cluster). */
export function withMock(cluster: Cluster): Cluster {
  return (directory, context) => new MockClusterInvoker(directory, cluster(directory, context), context);
}
