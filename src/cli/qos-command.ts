// `dubbo-ts qos <host:port> <command> [args…]`: one QoS command over the port's HTTP side (Java
// Dubbo's or ours, src/qos): `GET /<command>?arg0=…`, the answer printed as it comes.
import { request } from "node:http";
import { parseCommandLine } from "./command-line.js";
import { integerFlag, UsageError } from "./flags.js";
import { toJsonText } from "./json-values.js";
import { createTerminal } from "./terminal.js";

const QOS_USAGE = `usage: dubbo-ts qos <host:port> <command> [args…] [--timeout ms] [--json]

Runs one command on a QoS port (Java Dubbo's or a dubbo-ts application's, 22222 by default):
ls, ps, online, offline, invoke, select, count, ready, live, startup, version, getConfig,
switchLogLevel, metrics, help. Exits 0 when the port answers 200, 1 otherwise (a probe's 503).

  --timeout  ms to wait for the answer (default 10000)
  --json     print {"status": …, "body": "…"} for scripts
`;

const DEFAULT_TIMEOUT_MS = 10_000;

export async function runQosCommand(argv: readonly string[]): Promise<number> {
  const line = parseCommandLine(argv, { command: "qos", valued: ["timeout"], switches: ["json"] });
  if (line.switches.has("help")) {
    process.stdout.write(QOS_USAGE);
    return 0;
  }
  const [address, command, ...args] = line.positionals;
  if (address === undefined || command === undefined) {
    throw new UsageError("give the QoS address and a command: dubbo-ts qos 127.0.0.1:22222 ls");
  }
  const match = /^([^:/\s]+):(\d{1,5})$/.exec(address);
  if (match === null || Number(match[2]) > 65535) {
    throw new UsageError(`the QoS address "${address}" is not host:port; give e.g. 127.0.0.1:22222`);
  }
  const timeoutMs = integerFlag(line.flags, "timeout", DEFAULT_TIMEOUT_MS, {
    min: 1,
    max: 2_147_483_647,
    what: "a number of ms",
  });
  const query = new URLSearchParams(args.map((a, i): [string, string] => [`arg${i}`, a])).toString();
  const path = `/${encodeURIComponent(command)}${query === "" ? "" : `?${query}`}`;
  const { status, body } = await get(match[1]!, Number(match[2]), path, timeoutMs);
  if (line.switches.has("json")) {
    process.stdout.write(`${toJsonText({ status, body })}\n`);
  } else {
    const terminal = createTerminal(process.stdout);
    terminal.line(body.replace(/\r\n/g, "\n").replace(/\n$/, ""));
    if (status !== 200) createTerminal(process.stderr).line(terminal.red(`HTTP ${status}`));
  }
  return status === 200 ? 0 : 1;
}

function get(
  host: string,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, method: "GET", timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("timeout", () =>
      req.destroy(
        new Error(`no answer from the QoS port ${host}:${port} within ${timeoutMs} ms; raise --timeout`),
      ),
    );
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ECONNREFUSED"
          ? new Error(`nothing listens on ${host}:${port}; is QoS enabled there (qos.enable, qos.port)?`)
          : error,
      ),
    );
    req.end();
  });
}
