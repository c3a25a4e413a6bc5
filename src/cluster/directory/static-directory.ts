import {
  Code,
  type Invoker,
  type Logger,
  RpcError,
  type ServiceDefinition,
  servicePath,
  Url,
} from "../../core/index.js";
import type { Router } from "../contracts.js";
import { SnapshotDirectory } from "./snapshot-directory.js";

/**
 * A directory over a fixed set of invokers (direct `url=` references, tests, a registry's
 * per-registry invokers). Routers still apply on every `list`; `setInvokers` and `setRouters`
 * swap the snapshot for callers that manage the list themselves.
 */
export class StaticDirectory extends SnapshotDirectory {
  constructor(url: Url, invokers: readonly Invoker[], routers: readonly Router[] = [], logger?: Logger) {
    super(url, { invokers, routers }, logger);
  }

  setInvokers(invokers: readonly Invoker[]): void {
    this.swap({ invokers });
  }

  setRouters(routers: readonly Router[]): void {
    this.swap({ routers });
  }

  override async destroy(): Promise<void> {
    if (this.destroyed) return;
    await super.destroy();
    await Promise.allSettled(this.all().map((i) => i.destroy()));
  }
}

export function createStaticDirectory(
  url: Url,
  invokers: readonly Invoker[],
  routers: readonly Router[] = [],
  logger?: Logger,
): StaticDirectory {
  return new StaticDirectory(url, invokers, routers, logger);
}

/**
 * The addresses of a reference's `url=` setting (one or several, separated by `;` or `,`), each
 * a full URL (`dubbo://10.0.0.5:20880/com.foo.Demo`) or a bare `host:port` that gets the
 * reference's protocol. One without a path calls the service's path: its `definition`'s
 * (`package.Service` for an IDL service, whose interface may be `{java_package}.{Service}`),
 * else the reference's interface.
 */
export function parseDirectUrls(
  value: string,
  reference: Url,
  definition: ServiceDefinition | undefined,
): Url[] {
  const path = servicePath(reference.serviceInterface, definition);
  const parts = value
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (parts.length === 0) {
    throw new RpcError(
      `url="${value}" on the reference to ${reference.serviceKey} names no address (use host:port or dubbo://host:port/${reference.serviceInterface}, several separated by ";")`,
      Code.InvalidArgument,
    );
  }
  return parts.map((part) => {
    const text = part.includes("://") ? part : `${reference.protocol || "dubbo"}://${part}/${path}`;
    let url: Url;
    try {
      url = Url.parse(text);
    } catch (error) {
      throw new RpcError(
        `url="${value}" on the reference to ${reference.serviceKey}: "${part}" is not an address (${(error as Error).message})`,
        Code.InvalidArgument,
        { cause: error },
      );
    }
    if (url.port === 0) {
      throw new RpcError(
        `url="${value}" on the reference to ${reference.serviceKey}: "${part}" has no port (use host:port)`,
        Code.InvalidArgument,
      );
    }
    return url.path === "" ? url.with({ path }) : url;
  });
}
