import { clusterPlugin } from "../cluster/index.js";
import { DEFAULT_TRIPLE_PORT } from "../core/index.js";
import { filterPlugin } from "../filter/index.js";
import { monitorObserver, monitorPlugin } from "../monitor/index.js";
import { createDubboProtocol } from "../protocol/dubbo/index.js";
import { createInjvmProtocol, INJVM_PROTOCOL } from "../protocol/injvm/index.js";
import { BUILTIN_DISPATCHERS, BUILTIN_THREAD_POOLS } from "../protocol/shared/index.js";
import { TRIPLE_PROTOCOL } from "../protocol/triple/index.js";
import { embeddedRegistryPlugin } from "../registry/dubbo/embedded-registry-plugin.js";
import { zookeeperRegistryPlugin } from "../registry/index.js";
import { BUILTIN_SERIALIZATIONS } from "../serialize/index.js";
import type { Plugin } from "./extension-types.js";
import { lazyProtocol } from "./lazy-protocol.js";

/** The in-process protocol (Java's `injvm`). */
const injvmPlugin: Plugin = {
  name: "injvm",
  register: (points) => {
    points.protocol.register(INJVM_PROTOCOL, (context) =>
      createInjvmProtocol({ deadlines: context.deadlines }),
    );
  },
};

/** The dubbo protocol, reporting its connections and pool saturation to the application's monitor. */
const dubboProtocolPlugin: Plugin = {
  name: "dubbo",
  register: (points) => {
    points.protocol.register("dubbo", (context) =>
      createDubboProtocol({
        logger: context.logger,
        observer: monitorObserver(points.monitor),
        deadlines: context.deadlines,
        threadModel: context.threadModel,
        serializations: context.serializations,
      }),
    );
  },
};

/** Node's thread model: the bounded request executors (`threadpool`) and what goes through them (`dispatcher`). */
const threadModelPlugin: Plugin = {
  name: "thread-model",
  register: (points) => {
    for (const [name, pool] of BUILTIN_THREAD_POOLS) points.threadPool.register(name, pool);
    for (const [name, dispatcher] of BUILTIN_DISPATCHERS) points.dispatcher.register(name, dispatcher);
  },
};

/** The body serializations: Hessian 2 (id 2, the default) and fastjson's JSON (id 6). */
const serializationPlugin: Plugin = {
  name: "serialization",
  register: (points) => {
    for (const [name, serialization] of BUILTIN_SERIALIZATIONS)
      points.serialization.register(name, serialization);
  },
};

/**
 * Dubbo 3's Triple protocol (`tri://`): gRPC over HTTP/2 with Dubbo's headers, on the same thread
 * model and monitor as dubbo. Its modules and `@bufbuild/protobuf` load on the application's first
 * tri export or reference.
 */
const tripleProtocolPlugin: Plugin = {
  name: TRIPLE_PROTOCOL,
  register: (points) => {
    points.protocol.register(TRIPLE_PROTOCOL, (context) =>
      lazyProtocol(TRIPLE_PROTOCOL, DEFAULT_TRIPLE_PORT, async () =>
        (await import("../protocol/triple/triple-protocol.js")).createTripleProtocol({
          logger: context.logger,
          observer: monitorObserver(points.monitor),
          threadModel: context.threadModel,
          deadlines: context.deadlines,
        }),
      ),
    );
  },
};

/**
 * What every application has before its own plugins, in registration order (the filters' order
 * among equal activation orders follows it). Registry implementations load on first use.
 */
export const BUILTIN_PLUGINS: readonly Plugin[] = Object.freeze([
  injvmPlugin,
  dubboProtocolPlugin,
  tripleProtocolPlugin,
  threadModelPlugin,
  serializationPlugin,
  filterPlugin,
  monitorPlugin,
  clusterPlugin,
  zookeeperRegistryPlugin,
  embeddedRegistryPlugin,
]);
