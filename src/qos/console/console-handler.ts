import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Code, packageFile, RpcError } from "../../core/index.js";
import { methodMetricsRows } from "./method-metrics.js";
import type { RegistryView } from "./registry-view.js";
import { RULE_SUFFIXES, type RuleKind } from "./rule-kinds.js";

/** Where the console's page and API live, on its own port and on the QoS port alike. */
export const CONSOLE_PATH = "/console";
const MAX_BODY_BYTES = 1024 * 1024;

/** The page: plain HTML and a script, read from the sources (`src/` ships in the package). */
const PAGE_URL = packageFile("src/qos/console/console.html");

export interface ConsoleSources {
  /** The registry the console shows and changes (opened on first use). */
  registry(): Promise<RegistryView>;
  /** Prometheus texts in Java 3's metric names, one per application watched. */
  metricsTexts(): Promise<string[]>;
}

export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse) => void;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" });
  res.end(body);
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RpcError("the request body is over 1 MiB", Code.InvalidArgument);
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (typeof value === "object" && value !== null) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new RpcError("the request body must be a JSON object", Code.InvalidArgument);
}

function ruleTarget(body: Record<string, unknown>): { kind: RuleKind; key: string } {
  const { kind, key } = body;
  if (typeof kind !== "string" || !(kind in RULE_SUFFIXES) || typeof key !== "string") {
    throw new RpcError(
      `a rule needs "kind" (${Object.keys(RULE_SUFFIXES).join(", ")}) and "key"`,
      Code.InvalidArgument,
    );
  }
  return { kind: kind as RuleKind, key };
}

async function api(route: string, req: IncomingMessage, sources: ConsoleSources): Promise<unknown> {
  if (req.method === "GET" && route === "services") return (await sources.registry()).services();
  if (req.method === "GET" && route === "applications") return (await sources.registry()).applications();
  if (req.method === "GET" && route === "rules") return (await sources.registry()).rules();
  if (req.method === "GET" && route === "metrics") return methodMetricsRows(await sources.metricsTexts());
  if (req.method === "POST" && route === "rules") {
    const body = await jsonBody(req);
    const { kind, key } = ruleTarget(body);
    if (typeof body.yaml !== "string")
      throw new RpcError('a rule needs its "yaml" text', Code.InvalidArgument);
    return (await sources.registry()).putRule(kind, key, body.yaml);
  }
  if (req.method === "POST" && route === "rules/remove") {
    const { kind, key } = ruleTarget(await jsonBody(req));
    return { removed: await (await sources.registry()).removeRule(kind, key) };
  }
  return undefined;
}

/**
 * The web console as a `node:http` handler: `GET /console` is the page; `/console/api/…` answers
 * JSON (`services`, `applications`, `rules`, `metrics`; `POST rules` `{kind, key, yaml}` writes a rule, `POST
 * rules/remove` `{kind, key}` removes it). A bad request answers 400 with `{error}` naming what
 * to change; an unreachable registry 503.
 */
export function createConsoleHandler(sources: ConsoleSources): ConsoleHandler {
  return (req, res) => {
    const path = new URL(req.url ?? "/", "http://console").pathname.replace(/\/+$/, "");
    if (req.method === "GET" && path === CONSOLE_PATH) {
      send(res, 200, "text/html", readFileSync(PAGE_URL, "utf8"));
      return;
    }
    const prefix = `${CONSOLE_PATH}/api/`;
    const route = path.startsWith(prefix) ? path.slice(prefix.length) : "";
    api(route, req, sources).then(
      (value) =>
        value === undefined
          ? send(res, 404, "application/json", JSON.stringify({ error: `no ${req.method} ${path}` }))
          : send(res, 200, "application/json", JSON.stringify(value)),
      (error: unknown) => {
        const status = error instanceof RpcError && error.code === Code.InvalidArgument ? 400 : 503;
        const message = error instanceof RpcError ? error.rawMessage : String(error);
        send(res, status, "application/json", JSON.stringify({ error: message }));
      },
    );
  };
}
