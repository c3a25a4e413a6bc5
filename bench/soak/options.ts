// Command-line options of `npm run soak`: how long, how hard, and how often things are broken.

export interface SoakOptions {
  readonly durationMs: number;
  readonly providers: number;
  /** Calls started per second, steadily, whatever the previous ones are doing. */
  readonly callsPerSecond: number;
  /** A provider is killed with SIGKILL (and restarted on its port) this often. */
  readonly killEveryMs: number;
  /** ZooKeeper is halted and started again this often. */
  readonly zookeeperBounceEveryMs: number;
  /** How long ZooKeeper stays down in each bounce. */
  readonly zookeeperDownMs: number;
  readonly json: boolean;
}

const USAGE = `usage: npm run soak -- [--minutes N | --seconds N] [--providers 2|3] [--rate CALLS_PER_S]
                       [--kill-every SECONDS] [--zookeeper-every SECONDS] [--json]`;

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  let durationMs = 10 * 60_000;
  let providers = 3;
  let callsPerSecond = 40;
  let killEveryMs = 20_000;
  let zookeeperBounceEveryMs = 60_000;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => positiveNumber(flag ?? "", argv[++i]);
    switch (flag) {
      case "--minutes":
        durationMs = value() * 60_000;
        break;
      case "--seconds":
        durationMs = value() * 1000;
        break;
      case "--providers":
        providers = Math.round(value());
        break;
      case "--rate":
        callsPerSecond = value();
        break;
      case "--kill-every":
        killEveryMs = value() * 1000;
        break;
      case "--zookeeper-every":
        zookeeperBounceEveryMs = value() * 1000;
        break;
      case "--json":
        json = true;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  if (providers < 2) throw new Error(`--providers must be at least 2 (one is killed at a time)\n${USAGE}`);
  return {
    durationMs,
    providers,
    callsPerSecond,
    killEveryMs,
    zookeeperBounceEveryMs,
    zookeeperDownMs: Math.min(5000, zookeeperBounceEveryMs / 4),
    json,
  };
}

function positiveNumber(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n <= 0) {
    throw new Error(`${flag} needs a positive number, got ${text ?? "nothing"}\n${USAGE}`);
  }
  return n;
}
