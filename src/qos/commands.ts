import type { LogLevel } from "../core/index.js";
import { invoke, select } from "./invoke-command.js";
import type { QosAnswer, QosSession } from "./qos-session.js";
import type { QosSite } from "./qos-site.js";
import { textTable } from "./text-table.js";

export type { QosAnswer, QosSession } from "./qos-session.js";

interface QosCommand {
  readonly summary: string;
  run(site: QosSite, args: readonly string[], session: QosSession): QosAnswer | Promise<QosAnswer>;
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

/** Java's `Level` names and numbers (`switchLogLevel 3` is INFO), as our levels. */
const JAVA_LOG_LEVELS: ReadonlyArray<readonly [java: string, ours: LogLevel]> = [
  ["ALL", "trace"],
  ["TRACE", "trace"],
  ["DEBUG", "debug"],
  ["INFO", "info"],
  ["WARN", "warn"],
  ["ERROR", "error"],
  ["OFF", "silent"],
];

/** `switchLogLevel info` (or 0-6, ALL…OFF, as Java's): `OK`. */
function switchLogLevel(site: QosSite, args: readonly string[]): QosAnswer {
  if (args.length !== 1) return ok("Unexpected argument length.");
  const given = args[0]!;
  const level =
    JAVA_LOG_LEVELS[/^[0-6]$/.test(given) ? Number(given) : -1]?.[1] ??
    JAVA_LOG_LEVELS.find(([name]) => name === given.toUpperCase())?.[1];
  if (level === undefined) {
    const names = JAVA_LOG_LEVELS.map(([name]) => name).join(", ");
    return { text: `No log level ${given}: give one of ${names} or its number 0-6`, status: 400 };
  }
  return site.setLogLevel(level)
    ? ok("OK")
    : ok("The application's logger is its own Logger object; switch its level there");
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
  ["select", { summary: "Select the index of the method you want to invoke: select [index]", run: select }],
  ["count", { summary: "Count a provided service's calls: count XxxService [xxxMethod]", run: count }],
  ["getConfig", { summary: "Show the resolved configuration: getConfig [type] [id]", run: getConfig }],
  ["switchLogLevel", { summary: "Switch log level: switchLogLevel info", run: switchLogLevel }],
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
  session: QosSession = {},
): Promise<QosAnswer> {
  const command = QOS_COMMANDS.get(name);
  if (command === undefined) return { text: `${name} :no such command`, status: 404 };
  return command.run(site, args, session);
}
