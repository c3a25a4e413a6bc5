import type { QosSite } from "./qos-site.js";
import { textTable } from "./text-table.js";

/** A command's answer; `status` is the HTTP status (probes answer 503 when false). */
export interface QosAnswer {
  readonly text: string;
  readonly status: number;
  /** `quit`: the telnet session ends. */
  readonly close?: boolean;
}

interface QosCommand {
  readonly summary: string;
  run(site: QosSite, args: readonly string[]): QosAnswer | Promise<QosAnswer>;
}

const ok = (text: string): QosAnswer => ({ text, status: 200 });
const probe = (up: boolean): QosAnswer => ({ text: String(up), status: up ? 200 : 503 });

function ls(site: QosSite): QosAnswer {
  const providers = site.providers().sort((a, b) => (a.serviceKey < b.serviceKey ? -1 : 1));
  const consumers = site.consumers().sort();
  return ok(
    `As Provider side:\r\n${textTable([
      ["Provider Service Name", "PUB"],
      ...providers.map((p) => [p.serviceKey, p.registered ? "Y" : "N"]),
    ])}As Consumer side:\r\n${textTable([["Consumer Service Name"], ...consumers.map((c) => [c])])}`,
  );
}

async function setOnline(site: QosSite, args: readonly string[], online: boolean): Promise<QosAnswer> {
  const pattern = args[0] ?? ".*";
  try {
    new RegExp(pattern);
  } catch {
    return {
      text: `${pattern} is not a regular expression; give a service key or interface pattern`,
      status: 400,
    };
  }
  return ok((await site.setOnline(pattern, online)) ? "OK" : "service not found");
}

const INVOKE_USAGE =
  'Please input method name, eg: \r\ninvoke XxxService.xxxMethod(1234, "abcd", {"prop" : "value"})\r\n' +
  'invoke com.xxx.XxxService.xxxMethod(1234, "abcd", {"prop" : "value"})';

/** `invoke Service.method(json, …)`: Java's `result:` (JSON) and `elapsed: N ms.` lines. */
async function invoke(site: QosSite, args: readonly string[]): Promise<QosAnswer> {
  const text = args.join(" ").trim();
  if (text === "") return ok(INVOKE_USAGE);
  const open = text.indexOf("(");
  if (open < 0 || !text.endsWith(")")) return ok("Invalid parameters, format: service.method(args)");
  const target = text.slice(0, open).trim();
  const dot = target.lastIndexOf(".");
  if (dot <= 0) return ok("Name the service: invoke XxxService.xxxMethod(args)");
  const service = target.slice(0, dot);
  const method = target.slice(dot + 1);
  let values: unknown[];
  try {
    values = JSON.parse(`[${text.slice(open + 1, -1)}]`) as unknown[];
  } catch (error) {
    return ok(`Invalid json argument, cause: ${error instanceof Error ? error.message : String(error)}`);
  }
  let lookup: Awaited<ReturnType<QosSite["invoke"]>>;
  try {
    lookup = await site.invoke(service, method, values);
  } catch (error) {
    return ok(
      `Failed to invoke method ${method}, cause: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const used = `Use default service ${service}.\r\n`;
  if (lookup.found === "no service") return ok(`${used}No such service ${service}`);
  if (lookup.found === "no method") return ok(`${used}No such method ${method} in service ${service}`);
  const json = JSON.stringify(lookup.value.value, (_k, v: unknown) =>
    typeof v === "bigint" ? v.toString() : v,
  );
  return ok(`${used}result: ${json ?? "null"}\r\nelapsed: ${Math.round(lookup.value.elapsedMs)} ms.`);
}

/** `count Service [method]`: Java's table of method, total, failed, active, average, max. */
function count(site: QosSite, args: readonly string[]): QosAnswer {
  const [service, method] = args;
  if (service === undefined)
    return ok("Please input service name, eg: \r\ncount XxxService\r\ncount XxxService xxxMethod");
  const lookup = site.count(service, method);
  if (lookup.found === "no service") return ok(`No such service ${service}`);
  if (lookup.found === "no method") return ok(`No such method ${method ?? ""} in class ${lookup.service}`);
  return ok(
    textTable([
      ["method", "total", "failed", "active", "average", "max"],
      ...lookup.value.map((m) => [
        m.method,
        String(m.total),
        String(m.failed),
        String(m.active),
        `${Math.round(m.averageMs)}ms`,
        `${Math.round(m.maxMs)}ms`,
      ]),
    ]),
  );
}

/** `getConfig [type] [id]`: each matching entry as `Type: id`, its settings, a blank line (Java's shape). */
function getConfig(site: QosSite, args: readonly string[]): QosAnswer {
  const [type, id] = args;
  const entries = site
    .configs()
    .filter((e) => (type === undefined || e.type === type) && (id === undefined || e.id === id));
  return ok(entries.map((e) => `${e.type}: ${e.id}\r\n${JSON.stringify(e.settings)}\r\n`).join("\r\n"));
}

/** Java 3's QoS commands this application answers, by name. */
const QOS_COMMANDS: ReadonlyMap<string, QosCommand> = new Map<string, QosCommand>([
  ["help", { summary: "List the commands", run: () => ok(helpText()) }],
  ["ls", { summary: "List the provided and referred services", run: ls }],
  [
    "ps",
    {
      summary: "List the ports served (-l: with protocol and host)",
      run: (site, args) => {
        const urls = site.servedUrls();
        return ok((args.includes("-l") ? urls : urls.map((u) => new URL(u).port)).join("\r\n"));
      },
    },
  ],
  ["online", { summary: "Register services again: online [pattern]", run: (s, a) => setOnline(s, a, true) }],
  [
    "offline",
    {
      summary: "Unregister services, still serving: offline [pattern]",
      run: (s, a) => setOnline(s, a, false),
    },
  ],
  ["ready", { summary: "Readiness probe: true (200) or false (503)", run: (s) => probe(s.isReady()) }],
  ["live", { summary: "Liveness probe: true (200)", run: () => probe(true) }],
  ["startup", { summary: "Startup probe: true (200) or false (503)", run: (s) => probe(s.isReady()) }],
  ["version", { summary: "Show the version", run: (s) => ok(`dubbo version "${s.version}"`) }],
  ["invoke", { summary: "Call a provided method: invoke XxxService.xxxMethod(json args)", run: invoke }],
  ["count", { summary: "Count a provided service's calls: count XxxService [xxxMethod]", run: count }],
  ["getConfig", { summary: "Show the resolved configuration: getConfig [type] [id]", run: getConfig }],
  ["metrics", { summary: "Show the metrics in Prometheus text", run: (s) => ok(s.metricsText()) }],
  ["quit", { summary: "Close this session", run: () => ({ text: "BYE!\n", status: 200, close: true }) }],
]);

function helpText(): string {
  return textTable([
    ["COMMAND NAME", "COMMAND DESC"],
    ...[...QOS_COMMANDS].map(([name, c]) => [name, c.summary]),
  ]);
}

/** Runs one command; an unknown one answers 404 with Java's telnet wording. */
export async function runQosCommand(
  site: QosSite,
  name: string,
  args: readonly string[],
): Promise<QosAnswer> {
  const command = QOS_COMMANDS.get(name);
  if (command === undefined) return { text: `${name} :no such command`, status: 404 };
  return command.run(site, args);
}
