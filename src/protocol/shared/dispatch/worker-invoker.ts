import { availableParallelism } from "node:os";
import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import {
  BizError,
  Code,
  createMethodDispatch,
  DEFAULT_QUEUES,
  type Invocation,
  type Invoker,
  RpcError,
  type RpcResult,
  resultOf,
  type ServiceDefinition,
  type Url,
} from "../../../core/index.js";

/**
 * `threadpool=worker`: a CPU-bound service runs in `node:worker_threads`, so its work never blocks
 * the event loop that serves every other call. A function cannot cross threads, so the service is
 * named by module and export: each worker imports `module` and calls `module[exportName][method]`.
 * Arguments and results are copied with the structured clone algorithm (plain data, Dates, Maps,
 * typed arrays; no functions, no class prototypes). Each worker runs one call at a time; `threads`
 * workers, `queues` calls waiting, anything beyond is refused as busy (ResourceExhausted).
 * The service code in a worker has no RpcContext; filters still run on the main thread.
 */
export interface WorkerServiceOptions {
  /** Absolute path or file: URL of an ES module exporting the implementation. */
  readonly module: string | URL;
  /** The export holding the implementation object (default "default"). */
  readonly exportName?: string;
  /** Workers. Default: the URL's `threads`, else one less than the CPUs (at least 1). */
  readonly threads?: number;
  /** Calls that may wait for a worker. Default: the URL's `queues`, else 0. */
  readonly queues?: number;
  /**
   * Modules (absolute paths or file: URLs) each worker imports before the service module, e.g. one
   * that registers a TypeScript loader: `--import` hooks of the main thread do not reach workers.
   */
  readonly preload?: readonly (string | URL)[];
}

// Runs inside each worker (CommonJS eval, so it needs no file of its own next to the compiled code).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
function errorOf(e) {
  if (e instanceof Error) return { message: e.message, name: e.name, javaClass: typeof e.javaClass === "string" ? e.javaClass : undefined };
  return { message: String(e), name: "Error", javaClass: undefined };
}
workerData.preload.reduce((p, m) => p.then(() => import(m)), Promise.resolve()).then(() => import(workerData.module)).then((mod) => {
  const impl = mod[workerData.exportName];
  if (impl === null || typeof impl !== "object") {
    throw new Error("the module exports no object named " + JSON.stringify(workerData.exportName));
  }
  parentPort.on("message", async (msg) => {
    try {
      const fn = impl[msg.method];
      if (typeof fn !== "function") throw new Error("the worker implementation has no method " + JSON.stringify(msg.method));
      const value = await fn.apply(impl, msg.args);
      parentPort.postMessage({ id: msg.id, ok: true, value });
    } catch (e) {
      parentPort.postMessage({ id: msg.id, ok: false, error: errorOf(e) });
    }
  });
  parentPort.postMessage({ ready: true });
}).catch((e) => parentPort.postMessage({ ready: false, error: errorOf(e) }));
`;

interface WorkerReply {
  readonly id?: number;
  readonly ready?: boolean;
  readonly ok?: boolean;
  readonly value?: unknown;
  readonly error?: {
    readonly message: string;
    readonly name: string;
    readonly javaClass: string | undefined;
  };
}

interface Job {
  readonly id: number;
  readonly method: string;
  readonly args: readonly unknown[];
  readonly resolve: (result: RpcResult) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job: Job | undefined;
  ready: Promise<void>;
}

function fileUrlOf(module: string | URL, service: string): string {
  const href = module instanceof URL ? module.href : isAbsolute(module) ? pathToFileURL(module).href : module;
  if (!href.startsWith("file:")) {
    throw new RpcError(
      `a worker module of ${service} must be an absolute path or a file: URL, got ${String(module)}`,
      Code.InvalidArgument,
    );
  }
  return href;
}

export function createWorkerInvoker(
  definition: ServiceDefinition,
  options: WorkerServiceOptions,
  url: Url,
): Invoker {
  const service = definition.interfaceName;
  const moduleUrl = fileUrlOf(options.module, service);
  const preload = (options.preload ?? []).map((m) => fileUrlOf(m, service));
  const exportName = options.exportName ?? "default";
  const threads = options.threads ?? url.number("threads", Math.max(1, availableParallelism() - 1));
  const queues = options.queues ?? url.number("queues", DEFAULT_QUEUES);
  if (!Number.isInteger(threads) || threads < 1) {
    throw new RpcError(
      `threads=${threads} for the worker pool of ${service} must be at least 1`,
      Code.InvalidArgument,
    );
  }
  const dispatch = createMethodDispatch(definition);
  const slots: Slot[] = [];
  const waiting: Job[] = [];
  let nextId = 0;
  let destroyed = false;

  function failure(error: NonNullable<WorkerReply["error"]>): BizError {
    // A BizError thrown in the worker keeps its Java class; anything else is named like the exception filter does.
    if (error.javaClass !== undefined) return new BizError(error.message, { javaClass: error.javaClass });
    return new BizError(`${error.name}: ${error.message}`);
  }

  function spawn(index: number): Slot {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: moduleUrl, exportName, preload },
    });
    worker.unref();
    let markReady: () => void = () => {};
    let markFailed: (e: Error) => void = () => {};
    const slot: Slot = {
      worker,
      job: undefined,
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        markFailed = reject;
      }),
    };
    slot.ready.catch(() => {});
    worker.on("message", (reply: WorkerReply) => {
      if (reply.ready === true) return markReady();
      if (reply.ready === false) {
        return markFailed(
          new RpcError(
            `the worker for ${service} could not load ${moduleUrl} (export "${exportName}"): ${reply.error?.message}`,
            Code.FailedPrecondition,
          ),
        );
      }
      const job = slot.job;
      if (job === undefined || job.id !== reply.id) return;
      slot.job = undefined;
      if (reply.ok === true) job.resolve(resultOf(reply.value));
      else
        job.reject(
          failure(reply.error ?? { message: "unknown failure", name: "Error", javaClass: undefined }),
        );
      pump(slot);
    });
    const onDeath = (error: Error | number): void => {
      markFailed(new RpcError(`the worker for ${service} stopped: ${String(error)}`, Code.Internal));
      const job = slot.job;
      slot.job = undefined;
      job?.reject(
        new RpcError(`${service}.${job.method}: its worker thread died (${String(error)})`, Code.Internal),
      );
      if (!destroyed && slots[index] === slot) {
        slots[index] = spawn(index);
        pump(slots[index]!);
      }
    };
    worker.on("error", onDeath);
    worker.on("exit", (code) => {
      if (slots[index] === slot && !destroyed) onDeath(code);
    });
    return slot;
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.ready.then(
      () => {
        try {
          slot.worker.postMessage({ id: job.id, method: job.method, args: job.args });
        } catch (error) {
          slot.job = undefined;
          job.reject(
            new RpcError(
              `${service}.${job.method}: the arguments cannot be copied to a worker thread (${(error as Error).message})`,
              Code.InvalidArgument,
            ),
          );
          pump(slot);
        }
      },
      (error: unknown) => {
        slot.job = undefined;
        job.reject(error);
      },
    );
  }

  function pump(slot: Slot): void {
    const next = waiting.shift();
    if (next !== undefined) start(slot, next);
  }

  for (let i = 0; i < threads; i++) slots.push(spawn(i));

  return {
    url,
    definition,
    invoke(inv: Invocation): Promise<RpcResult> {
      if (destroyed) {
        return Promise.reject(
          new RpcError(`${service}.${inv.method}: the worker pool was destroyed`, Code.Unavailable),
        );
      }
      // The worker's implementation has the contract's functions: the overload's key names it.
      const method = dispatch.resolve(inv);
      if (method instanceof RpcError) return Promise.reject(method);
      return new Promise<RpcResult>((resolve, reject) => {
        const job: Job = { id: nextId++, method: method.key, args: inv.args, resolve, reject };
        const idle = slots.find((s) => s.job === undefined);
        if (idle !== undefined) return start(idle, job);
        if (queues < 0 || waiting.length < queues) {
          waiting.push(job);
          return;
        }
        reject(
          new RpcError(
            `${service}.${inv.method} was refused: all ${threads} worker threads are busy and ${waiting.length} calls wait ` +
              `(threadpool=worker threads=${threads} queues=${queues}); raise \`threads\`/\`queues\` or add providers`,
            Code.ResourceExhausted,
          ),
        );
      });
    },
    isAvailable: () => !destroyed,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      const dropped = [...waiting.splice(0), ...slots.flatMap((s) => (s.job === undefined ? [] : [s.job]))];
      for (const job of dropped) {
        job.reject(new RpcError(`${service}.${job.method}: the worker pool was destroyed`, Code.Unavailable));
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
