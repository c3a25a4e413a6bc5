// Commands that take positional arguments and on/off switches besides `--name value` flags:
// positionals and switches are taken out here, the flags are read by parseFlags.
import { parseFlags, UsageError } from "./flags.js";

export interface CommandLine {
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string>;
  /** Switches given (`--json`); `help` for --help/-h. */
  readonly switches: ReadonlySet<string>;
}

export interface CommandSyntax {
  readonly command: string;
  /** Flags that take a value. */
  readonly valued: readonly string[];
  /** Flags that stand alone. */
  readonly switches: readonly string[];
}

export function parseCommandLine(argv: readonly string[], syntax: CommandSyntax): CommandLine {
  const positionals: string[] = [];
  const flagArgs: string[] = [];
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      switches.add("help");
    } else if (syntax.switches.includes(arg.slice(2)) && arg.startsWith("--")) {
      switches.add(arg.slice(2));
    } else if (arg.startsWith("--")) {
      flagArgs.push(arg);
      const name = arg.slice(2);
      if (!name.includes("=") && syntax.valued.includes(name) && i + 1 < argv.length)
        flagArgs.push(argv[++i]!);
    } else {
      positionals.push(arg);
    }
  }
  const known = [...syntax.valued, ...syntax.switches];
  const flags = parseFlagsNaming(flagArgs, syntax.valued, known, syntax.command);
  return { positionals, flags, switches };
}

/** parseFlags, with the switches listed among the known flags in its errors. */
function parseFlagsNaming(
  flagArgs: readonly string[],
  valued: readonly string[],
  known: readonly string[],
  command: string,
): Map<string, string> {
  try {
    return parseFlags(flagArgs, valued, command);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const list = `the flags are ${known.map((k) => `--${k}`).join(", ")}`;
    throw new UsageError(error.message.replace(/the flags are [^(]*/, `${list} `));
  }
}
