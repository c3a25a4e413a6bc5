/** A command-line mistake: printed as one line naming the flag to change, never with a stack. */
export class UsageError extends Error {
  override name = "UsageError";
}

/**
 * Reads `--name value` and `--name=value` against the flags a command knows; `--help`/`-h` reads
 * as `help`. Anything else (an unknown flag, a flag without its value, a stray word) is a
 * UsageError that names it and lists the known flags.
 */
export function parseFlags(
  argv: readonly string[],
  known: readonly string[],
  command: string,
): Map<string, string> {
  const flags = new Map<string, string>();
  const list = `the flags are ${known.map((k) => `--${k}`).join(", ")} (see dubbo-ts ${command} --help)`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      flags.set("help", "true");
      continue;
    }
    if (!arg.startsWith("--")) {
      throw new UsageError(`unexpected argument "${arg}"; ${list}`);
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    if (!known.includes(name)) {
      throw new UsageError(`unknown flag --${name}; ${list}`);
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === "" || (eq < 0 && value.startsWith("--"))) {
      throw new UsageError(`--${name} needs a value`);
    }
    flags.set(name, value);
  }
  return flags;
}

/** An integer flag within [min, max], or `fallback` when the flag is absent. */
export function integerFlag(
  flags: ReadonlyMap<string, string>,
  name: string,
  fallback: number,
  range: { readonly min: number; readonly max: number; readonly what: string },
): number {
  const text = flags.get(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new UsageError(
      `--${name} ${text} is not ${range.what} (an integer from ${range.min} to ${range.max}); change --${name}`,
    );
  }
  return value;
}
