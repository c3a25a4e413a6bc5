// The dubbo-ts command. `dubbo-ts registry --port N` runs the embedded registry.
import { runRegistryCli } from "../registry/dubbo/index.js";

const USAGE = `usage: dubbo-ts <command>

commands:
  registry [--host 127.0.0.1] [--port 9090]   run the embedded dubbo:// registry until SIGINT/SIGTERM
`;

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "registry":
      await runRegistryCli(rest);
      return 0;
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`dubbo-ts: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}
