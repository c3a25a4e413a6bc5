// The dubbo-ts command: `registry` runs the embedded registry; `gen`, `invoke`, `ls`, `qos` and
// `console` are the operator's tools; `--version`, `--help`.
// Mistakes print one line naming the flag to change (exit 2); nothing prints a stack trace.
import { readFileSync } from "node:fs";
import { packageFile } from "../core/index.js";
import { runConsoleCommand } from "./console-command.js";
import { UsageError } from "./flags.js";
import { runGenCommand } from "./gen-command.js";
import { runInvokeCommand } from "./invoke-command.js";
import { runLsCommand } from "./ls-command.js";
import { runQosCommand } from "./qos-command.js";
import { runRegistryCommand } from "./registry-command.js";

/** Each command parses its own flags (and answers its own --help); it resolves with the exit code. */
const COMMANDS: Readonly<Record<string, (argv: readonly string[]) => Promise<number>>> = {
  registry: runRegistryCommand,
  gen: runGenCommand,
  invoke: runInvokeCommand,
  ls: runLsCommand,
  qos: runQosCommand,
  console: runConsoleCommand,
};

const USAGE = `usage: dubbo-ts <command> [flags]

commands:
  registry   run the embedded dubbo:// registry until SIGINT/SIGTERM
  gen        write TypeScript contracts from a Java API jar or classes directory
  invoke     call one method of a provider or of a service in a registry
  ls         list a registry's services, providers, consumers and rules
  qos        run one command on a QoS port
  console    serve the web console for a ZooKeeper registry

dubbo-ts <command> --help   flags of one command
dubbo-ts --version          the installed version
`;

/** The package's version, from its package.json. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const known = COMMANDS[command];
  if (known === undefined) {
    const commands = Object.keys(COMMANDS).join(", ");
    process.stderr.write(
      `dubbo-ts: unknown command "${command}"; the commands are ${commands} (see dubbo-ts --help)\n`,
    );
    return 2;
  }
  try {
    return await known(rest);
  } catch (error) {
    process.stderr.write(`dubbo-ts ${command}: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
