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

/** Java 3's QoS commands this application answers, by name. */
export const QOS_COMMANDS: ReadonlyMap<string, QosCommand> = new Map<string, QosCommand>([
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
