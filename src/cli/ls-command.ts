// `dubbo-ts ls <registry URL>`: every service a registry knows, with its providers, consumers and
// rules (routers, configurators), read through the project's own registry code as dubbo-admin
// reads them: one subscription to interface `*` in every category; and, on ZooKeeper, every
// application's instances under `/services/{app}` (Dubbo 3's application-level discovery).
import { silentLogger, Url } from "../core/index.js";
import { type ApplicationEntry, openRegistryView } from "../qos/index.js";
import {
  ALL_CATEGORIES,
  ANY_VALUE,
  CATEGORY_KEY,
  categoryOf,
  isEmptyUrl,
  type NotifyListener,
  type Registries,
} from "../registry/index.js";
import { CLI_APPLICATION, createCliApplication, parseTarget } from "./cli-application.js";
import { parseCommandLine } from "./command-line.js";
import { UsageError } from "./flags.js";
import { toJsonText } from "./json-values.js";
import { createTerminal, type Terminal } from "./terminal.js";

const LS_USAGE = `usage: dubbo-ts ls <registry URL> [--json]

Lists every service the registry knows: its providers, consumers, routers and configurators
(override and condition rules), as dubbo-admin shows them; on ZooKeeper also every application's
instances under /services/{app} (address, metadata revision, endpoints). zookeeper://host:2181,
or registry://host:9090 for the embedded registry.

  --json   print {"services": {"<interface>": {"providers": [url…], "consumers": […], …}},
           "applications": [{"application", "instances": [{id, address, port, revision,
           endpoints, metadata}]}]} for scripts
`;

type Listing = Map<string, Map<string, string[]>>;

export async function runLsCommand(argv: readonly string[]): Promise<number> {
  const line = parseCommandLine(argv, { command: "ls", valued: [], switches: ["json"] });
  if (line.switches.has("help")) {
    process.stdout.write(LS_USAGE);
    return 0;
  }
  const [address, ...extra] = line.positionals;
  if (address === undefined)
    throw new UsageError("give the registry to list: dubbo-ts ls zookeeper://host:2181");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"; ls reads one registry`);
  const target = parseTarget(address, "the registry");
  if (!("registry" in target)) {
    throw new UsageError(
      `${address} is a provider address; ls needs a registry URL (zookeeper://host:2181, or registry://host:9090 for the embedded one)`,
    );
  }
  const terminal = createTerminal(process.stdout);
  createTerminal(process.stderr).progress(`reading ${target.registry} …`);
  const app = await createCliApplication(target);
  try {
    const listing = await readListing(app.registries, target.registry);
    const applications = await readApplications(target.registry);
    createTerminal(process.stderr).progress("");
    if (line.switches.has("json")) {
      process.stdout.write(`${toJsonText({ services: listing, applications })}\n`);
    } else {
      printListing(terminal, listing);
      printApplications(terminal, applications);
    }
    return 0;
  } finally {
    await app.stop();
  }
}

/** Services by interface, each with its URLs by category (empty categories left out). */
async function readListing(registries: Registries, address: string): Promise<Listing> {
  const registry = await registries.get(Url.parse(address).withParams({ "file.cache": "false" }));
  const listing: Listing = new Map();
  const everything = Url.parse(`admin://127.0.0.1/${ANY_VALUE}`).withParams({
    interface: ANY_VALUE,
    // Every group, version and classifier, disabled providers too: dubbo-admin's subscription.
    group: ANY_VALUE,
    version: ANY_VALUE,
    classifier: ANY_VALUE,
    enabled: ANY_VALUE,
    [CATEGORY_KEY]: ALL_CATEGORIES.join(","),
    application: CLI_APPLICATION,
    check: "false",
  });
  const listener: NotifyListener = (urls) => {
    for (const url of urls) {
      const service = listing.get(url.serviceInterface) ?? new Map<string, string[]>();
      listing.set(url.serviceInterface, service);
      const category = categoryOf(url);
      const live = urls.filter(
        (u) => !isEmptyUrl(u) && categoryOf(u) === category && u.serviceInterface === url.serviceInterface,
      );
      if (live.length === 0) service.delete(category);
      else service.set(category, live.map((u) => u.toFullString()).sort());
    }
  };
  await registry.subscribe(everything, listener);
  await registry.unsubscribe(everything, listener);
  for (const [name, service] of listing) if (service.size === 0) listing.delete(name);
  return new Map([...listing].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The applications' instances on a ZooKeeper registry; none elsewhere (the embedded registry has none). */
async function readApplications(address: string): Promise<ApplicationEntry[]> {
  const url = Url.parse(address);
  if (url.protocol !== "zookeeper") return [];
  const view = await openRegistryView(url, silentLogger);
  try {
    return await view.applications();
  } finally {
    view.close();
  }
}

function printApplications(terminal: Terminal, applications: readonly ApplicationEntry[]): void {
  if (applications.length === 0) return;
  terminal.line(terminal.bold("applications (instances under /services):"));
  for (const { application, instances } of applications) {
    terminal.line(`${terminal.bold(application)}  ${terminal.green(`${instances.length} instance(s)`)}`);
    for (const instance of instances) {
      const endpoints = instance.endpoints.map((e) => `${e.protocol}:${e.port}`).join(" ");
      const revision = instance.revision === "" ? "no revision" : `revision ${instance.revision}`;
      terminal.line(
        `  ${instance.id}  ${terminal.dim(`${revision}${endpoints === "" ? "" : `  ${endpoints}`}`)}`,
      );
    }
  }
}

function printListing(terminal: Terminal, listing: Listing): void {
  if (listing.size === 0) {
    terminal.line("no services registered");
    return;
  }
  for (const [name, service] of listing) {
    const providers = service.get("providers")?.length ?? 0;
    terminal.line(`${terminal.bold(name)}  ${terminal.green(`${providers} provider(s)`)}`);
    for (const category of ALL_CATEGORIES) {
      const urls = service.get(category);
      if (urls === undefined) continue;
      terminal.line(`  ${category}:`);
      for (const url of urls) terminal.line(`    ${terminal.dim(url)}`);
    }
  }
}
