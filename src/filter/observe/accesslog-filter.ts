import { appendFile } from "node:fs/promises";
import {
  consoleLogger,
  DEFAULT_ACCESSLOG_FLUSH_MS,
  type Filter,
  type FilterExtension,
  type Invocation,
  type Logger,
  type Url,
} from "../../core/index.js";

/** Java's AccessLogFilter keeps at most this many lines per file between flushes. */
const MAX_BUFFERED_LINES = 5000;

export interface AccessLogOptions {
  /** `accesslog=true` lines are its `info` records; failed file writes its warnings. */
  readonly logger?: Logger | undefined;
  /** ms between flushes of a file log (default 5000). */
  readonly flushMs?: number;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function timestamp(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`
  );
}

/**
 * The arguments as JSON, each shared object written once and later references as `{"$ref":…}`
 * (as Java's fastjson writes them), so a graph of back-references costs its size, not its expansion.
 */
function argsText(args: readonly unknown[]): string {
  const written = new Set<object>();
  try {
    return JSON.stringify(args, (_k, v: unknown) => {
      if (typeof v === "bigint") return v.toString();
      if (typeof v !== "object" || v === null) return v;
      if (written.has(v)) return { $ref: "shared" };
      written.add(v);
      return v;
    });
  } catch {
    return "[unprintable arguments]";
  }
}

/** One line as Java writes it: `[time] caller -> provider - group/service:version method(types) args`. */
export function formatAccessLine(inv: Invocation, url: Url, now = new Date()): string {
  const service = `${inv.group ? `${inv.group}/` : ""}${inv.service}${inv.version ? `:${inv.version}` : ""}`;
  const types = inv.parameterTypes.map((t) => t.name).join(",");
  return `[${timestamp(now)}] ${inv.remoteAddress ?? "unknown"} -> ${url.address} - ${service} ${inv.method}(${types}) ${argsText(inv.args)}`;
}

interface FileLog {
  lines: string[];
  writing: Promise<void>;
}

/**
 * Provider side (Java's AccessLogFilter), on with `accesslog`: `true`/`default` sends each call's
 * line to the logger (`info`); any other value is a file path the lines are appended to, buffered
 * (at most 5000 lines) and written asynchronously every `flushMs`, so the call path never waits for
 * the disk. `close` (the application's stop, after its services drained) writes what is buffered.
 */
export function createAccessLogFilter(options: AccessLogOptions = {}): FilterExtension {
  const logger = options.logger ?? consoleLogger;
  const flushMs = options.flushMs ?? DEFAULT_ACCESSLOG_FLUSH_MS;
  const files = new Map<string, FileLog>();
  let timer: NodeJS.Timeout | undefined;

  function flush(): Promise<void> {
    for (const [path, file] of files) {
      if (file.lines.length === 0) continue;
      const text = `${file.lines.join("\n")}\n`;
      file.lines = [];
      file.writing = file.writing
        .then(() => appendFile(path, text))
        .catch((error: unknown) => logger.warn(`could not write the access log ${path}`, error));
    }
    return Promise.all([...files.values()].map((f) => f.writing)).then(() => {});
  }

  function schedule(): void {
    if (timer !== undefined) return;
    timer = setInterval(() => void flush(), flushMs);
    timer.unref();
  }

  const filter: Filter = (next, invoker) => {
    const url = invoker.url;
    const setting = url.get("accesslog");
    if (setting === undefined || setting === "" || setting === "false") return next;
    const toLog = setting === "true" || setting === "default";
    return (inv) => {
      try {
        const line = formatAccessLine(inv, url);
        if (toLog) logger.info(line);
        else {
          let file = files.get(setting);
          if (file === undefined) {
            file = { lines: [], writing: Promise.resolve() };
            files.set(setting, file);
          }
          if (file.lines.length < MAX_BUFFERED_LINES) file.lines.push(line);
          schedule();
        }
      } catch (error) {
        logger.warn("could not format an access log line", error);
      }
      return next(inv);
    };
  };

  return Object.freeze({
    filter,
    activate: Object.freeze({ side: "provider", keys: Object.freeze(["accesslog"]) }),
    close: () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      return flush();
    },
  });
}
