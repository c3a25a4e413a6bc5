// A typed view of the parts of the npm apache-dubbo-js 3.0.0-rc6 consumer the interop test uses:
// its direct mode (DirectlyDubbo) and js-to-java for typed arguments. Both are CommonJS.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** An argument as js-to-java wraps it: the Java class and the value. */
export interface JavaArg {
  readonly $class: string;
  readonly $: unknown;
}

export interface JsToJava {
  String(value: string): JavaArg;
  int(value: number): JavaArg;
  long(value: number): JavaArg;
  List(value: readonly unknown[]): JavaArg;
  combine(className: string, value: Record<string, unknown>): JavaArg;
}

/** dubbo-js resolves every call with { res, err } instead of rejecting. */
export interface DubboJsReply {
  readonly res: unknown;
  readonly err: (Error & { name: string }) | null;
}

export type DubboJsMethods = Record<string, (...args: never[]) => JavaArg[]>;

interface SocketWorker {
  _retry: number;
  _socket: { destroy(): void; write(bytes: Buffer): boolean } | undefined;
}

interface DirectlyDubboInstance {
  proxyService(options: {
    dubboInterface: string;
    version?: string;
    group?: string;
    /** Sent as the `timeout` attachment, in seconds. */
    timeout?: number;
    methods: DubboJsMethods;
  }): Record<string, (...args: never[]) => Promise<DubboJsReply>>;
  _socketWorker: SocketWorker;
}

interface DirectlyDubboClass {
  from(props: {
    dubboAddress: string;
    dubboVersion: string;
    dubboInvokeTimeout: number;
  }): DirectlyDubboInstance;
}

export const java = require("js-to-java") as JsToJava;
const HeartBeat = (require("apache-dubbo-js/es7/heartbeat.js") as { default: { encode(): Buffer } }).default;
const DirectlyDubbo = (require("apache-dubbo-js/es7/directly-dubbo.js") as { default: DirectlyDubboClass })
  .default;

export interface DubboJsConsumer {
  proxy<M extends DubboJsMethods>(
    dubboInterface: string,
    methods: M,
    options?: { version?: string; timeoutSeconds?: number },
  ): { [K in keyof M]: (...args: Parameters<M[K]>) => Promise<DubboJsReply> };
  /**
   * dubbo-js has no close(): its socket worker reconnects 20 times, 3 s apart, and keeps a 180 s
   * heartbeat interval. Turning retries off and destroying the socket runs its own close path,
   * which clears that interval.
   */
  close(): void;
  /** Writes dubbo-js's own heartbeat frame (request id 0, event flag, null body) on its socket. */
  sendHeartbeat(): void;
}

export function createDubboJsConsumer(
  host: string,
  port: number,
  invokeTimeoutSeconds = 10,
): DubboJsConsumer {
  const dubbo = DirectlyDubbo.from({
    dubboAddress: `${host}:${port}`,
    dubboVersion: "2.0.2",
    dubboInvokeTimeout: invokeTimeoutSeconds,
  });
  return {
    proxy(dubboInterface, methods, options = {}) {
      return dubbo.proxyService({
        dubboInterface,
        methods,
        ...(options.version === undefined ? {} : { version: options.version }),
        ...(options.timeoutSeconds === undefined ? {} : { timeout: options.timeoutSeconds }),
      }) as never;
    },
    sendHeartbeat() {
      dubbo._socketWorker._socket?.write(HeartBeat.encode());
    },
    close() {
      dubbo._socketWorker._retry = 0;
      dubbo._socketWorker._socket?.destroy();
    },
  };
}
