import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Url } from "../core/index.js";
import { properties, renderProperties } from "./properties-format.js";
import type { RegistryLogger } from "./registry.js";

/** Java's `AbstractRegistry` retries a failed save this many times. */
const SAVE_ATTEMPTS = 3;
/**
 * How long an asynchronous save waits for more changes: 1 000 services exported one after another
 * make a few writes of the file, not 1 000 (each re-reads and rewrites all of it).
 */
const SAVE_DELAY_MS = 500;
const HEADER = "Dubbo Registry Cache";

/**
 * Java's default cache path: `~/.dubbo/dubbo-registry-{application}-{address with ':' → '-'}.cache`,
 * one file per application and registry address. The registry URL's `file` parameter overrides it.
 */
export function registryCachePath(registryUrl: Url): string {
  const explicit = registryUrl.get("file");
  if (explicit !== undefined && explicit !== "") return explicit;
  const application = registryUrl.string("application", "unknown");
  const address = registryUrl.address.replaceAll(":", "-");
  return join(homedir(), ".dubbo", `dubbo-registry-${application}-${address}.cache`);
}

export interface RegistryCacheOptions {
  readonly file: string;
  /**
   * Write before returning from `set` (`save.file=true`); otherwise changes are coalesced and saved
   * in the background, at most one write at a time, `SAVE_DELAY_MS` after the first unsaved change.
   */
  readonly sync: boolean;
  readonly logger: RegistryLogger;
}

/** The text of one version of the cache, built when a write starts. */
export interface CacheSnapshot {
  readonly version: number;
  readonly entries: ReadonlyMap<string, string>;
}

/**
 * The local cache of the last notified URLs per subscription, so a consumer that starts while the
 * registry is down still finds its providers.
 *
 * Format: Java's `Properties` text (so Java Dubbo can read it too): a `#Dubbo Registry Cache`
 * comment, then one `key=value` line per subscription, the key being the service key
 * (`group/interface:version`) and the value the `toFullString()` of every URL last notified for it,
 * separated by single spaces.
 *
 * Writes are atomic: the text goes to a temp file in the same directory, then `rename` replaces
 * the cache in one step, so a reader never sees half a file. Every change bumps a version; a write
 * whose version is not newer than the last one renamed into place is dropped, so an older version
 * never clobbers a newer one. Several processes of one application share the file with
 * rename-only semantics (no lock file): each write re-reads the file and keeps the other processes'
 * keys, overlaying only the keys this process has notified, so concurrent writers each leave a
 * whole, valid file and lose at most another process's change made in the same instant (which that
 * process restores on its next change).
 */
export class RegistryCacheFile {
  readonly file: string;
  readonly #sync: boolean;
  readonly #logger: RegistryLogger;
  readonly #entries: Map<string, string>;
  /** Lists set since they were last rendered: rendered when a save (or a reader) needs the text. */
  readonly #unrendered = new Map<string, readonly Url[]>();
  readonly #ownKeys = new Set<string>();
  #version = 0;
  #renamedVersion = 0;
  #writing: Promise<void> | undefined;
  #delay: NodeJS.Timeout | undefined;
  #unsaved = false;
  #tempCounter = 0;
  #writes = 0;

  constructor(options: RegistryCacheOptions) {
    this.file = options.file;
    this.#sync = options.sync;
    this.#logger = options.logger;
    this.#entries = this.#readSync();
  }

  /** How many times this instance has replaced the file (each save that reached the disk). */
  get writes(): number {
    return this.#writes;
  }

  /** The cached value for a service key (space-separated URLs), as loaded or last set. */
  get(key: string): string | undefined {
    const urls = this.#unrendered.get(key);
    if (urls !== undefined) {
      this.#unrendered.delete(key);
      this.#entries.set(key, urls.map((u) => u.toFullString()).join(" "));
    }
    return this.#entries.get(key);
  }

  /** The URLs cached for a service key; unparsable entries are skipped with a warning. */
  urls(key: string, parse: (text: string) => Url): Url[] {
    const value = this.get(key);
    if (value === undefined || value.trim() === "") return [];
    const out: Url[] = [];
    for (const text of value.trim().split(/\s+/)) {
      try {
        out.push(parse(text));
      } catch (error) {
        this.#logger.warn(`registry cache ${this.file}: skipping unreadable URL "${text}"`, error);
      }
    }
    return out;
  }

  /** Records a service key's URLs; their text is built when it is saved, off the notify path. */
  set(key: string, urls: readonly Url[]): void {
    this.#unrendered.set(key, urls);
    this.#ownKeys.add(key);
    this.#version += 1;
    if (this.#sync) this.#saveSync();
    else this.#scheduleAsync();
  }

  /** The state to write, stamped with the current version. */
  snapshot(): CacheSnapshot {
    const entries = new Map<string, string>();
    for (const key of this.#ownKeys) {
      const value = this.get(key);
      if (value !== undefined) entries.set(key, value);
    }
    return { version: this.#version, entries };
  }

  /**
   * Writes one snapshot atomically; resolves false (and leaves the file alone) when a snapshot of
   * the same or a newer version is already in place.
   */
  async write(snapshot: CacheSnapshot): Promise<boolean> {
    if (snapshot.version <= this.#renamedVersion) return false;
    await mkdir(dirname(this.file), { recursive: true });
    // Other processes' keys are kept; ours are about to be replaced, so their old values are not read.
    const onDisk = await readFile(this.file, "latin1").then(
      (text) => properties(text, snapshot.entries),
      () => new Map<string, string>(),
    );
    const temp = this.#tempPath();
    await writeFile(temp, renderProperties(HEADER, merge(onDisk, snapshot.entries)), "latin1");
    // Check and rename in one synchronous step, so no newer write can land between them.
    if (snapshot.version <= this.#renamedVersion) {
      await rm(temp, { force: true });
      return false;
    }
    try {
      renameSync(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.#renamedVersion = snapshot.version;
    this.#writes += 1;
    return true;
  }

  /** Resolves when every change made so far is on disk (or its save has failed and been logged). */
  async flush(): Promise<void> {
    for (;;) {
      if (this.#delay !== undefined) this.#startSave();
      if (this.#writing === undefined) return;
      await this.#writing;
    }
  }

  #scheduleAsync(): void {
    this.#unsaved = true;
    if (this.#delay !== undefined || this.#writing !== undefined) return;
    this.#delay = setTimeout(() => this.#startSave(), SAVE_DELAY_MS);
    this.#delay.unref();
  }

  #startSave(): void {
    clearTimeout(this.#delay);
    this.#delay = undefined;
    this.#writing = this.#save().finally(() => {
      this.#writing = undefined;
      // Changes made while writing wait their own delay.
      if (this.#unsaved) this.#scheduleAsync();
    });
  }

  async #save(): Promise<void> {
    this.#unsaved = false;
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
      try {
        await this.write(this.snapshot());
        return;
      } catch (error) {
        if (attempt === SAVE_ATTEMPTS)
          this.#logger.warn(
            `could not save the registry cache ${this.file} after ${SAVE_ATTEMPTS} attempts (set file.cache=false to disable it, or file=<path> to move it)`,
            error,
          );
      }
    }
  }

  #saveSync(): void {
    const snapshot = this.snapshot();
    for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt += 1) {
      const temp = this.#tempPath();
      try {
        mkdirSync(dirname(this.file), { recursive: true });
        const onDisk = this.#readSync(snapshot.entries);
        writeFileSync(temp, renderProperties(HEADER, merge(onDisk, snapshot.entries)), "latin1");
        renameSync(temp, this.file);
        this.#renamedVersion = snapshot.version;
        this.#writes += 1;
        return;
      } catch (error) {
        rmSync(temp, { force: true });
        if (attempt === SAVE_ATTEMPTS)
          this.#logger.warn(`could not save the registry cache ${this.file} (save.file=true)`, error);
      }
    }
  }

  #readSync(except?: ReadonlyMap<string, string>): Map<string, string> {
    try {
      return properties(readFileSync(this.file, "latin1"), except);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        this.#logger.warn(`could not read the registry cache ${this.file}; starting without it`, error);
      return new Map();
    }
  }

  #tempPath(): string {
    this.#tempCounter += 1;
    return `${this.file}.${process.pid}.${this.#tempCounter}.tmp`;
  }
}

function merge(onDisk: Map<string, string>, own: ReadonlyMap<string, string>): Map<string, string> {
  for (const [k, v] of own) onDisk.set(k, v);
  return onDisk;
}
