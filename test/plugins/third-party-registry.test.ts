// A registry type written as a third party would write it: only the public entry points
// (dubbo-ts and dubbo-ts/extension), packaged as a plugin, with its own settings check.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, defineService, java, silentLogger } from "dubbo-ts";
import {
  Code,
  categoryOf,
  emptyUrl,
  FailbackRegistry,
  isMatch,
  type NotifyListener,
  type Plugin,
  type RegistryExtension,
  type RegistryOptions,
  RpcError,
  registryPlugin,
  type Url,
} from "dubbo-ts/extension";

const Greeter = defineService("org.example.plugin.Greeter", {
  greet: { args: [java.String], returns: java.String },
});

/** What several applications of this test process share: the registered URLs of one board. */
interface Board {
  readonly urls: Map<string, Url>;
  readonly watchers: Set<{
    readonly registry: BoardRegistry;
    readonly url: Url;
    readonly listener: NotifyListener;
  }>;
}
const boards = new Map<string, Board>();

class BoardRegistry extends FailbackRegistry {
  readonly #board: Board;

  constructor(url: Url, options: RegistryOptions) {
    super(url, options);
    const name = url.string("board", "default");
    let board = boards.get(name);
    if (board === undefined) {
      board = { urls: new Map(), watchers: new Set() };
      boards.set(name, board);
    }
    this.#board = board;
  }

  isAvailable(): boolean {
    return true;
  }

  protected async doRegister(url: Url): Promise<void> {
    this.#board.urls.set(url.toFullString(), url);
    this.#tellAll();
  }

  protected async doUnregister(url: Url): Promise<void> {
    this.#board.urls.delete(url.toFullString());
    this.#tellAll();
  }

  protected async doSubscribe(url: Url, listener: NotifyListener): Promise<void> {
    this.#board.watchers.add({ registry: this, url, listener });
    this.tell(url, listener);
  }

  protected async doUnsubscribe(_url: Url, listener: NotifyListener): Promise<void> {
    for (const watcher of this.#board.watchers) {
      if (watcher.registry === this && watcher.listener === listener) this.#board.watchers.delete(watcher);
    }
  }

  /** Full lists per category the subscription asks for (`empty://` for an empty one). */
  tell(url: Url, listener: NotifyListener): void {
    const matching = [...this.#board.urls.values()].filter((u) => isMatch(url, u));
    const lists = url.list("category").flatMap((category) => {
      const found = matching.filter((u) => categoryOf(u) === category);
      return found.length > 0 ? found : [emptyUrl(url, category)];
    });
    this.notify(url, listener, lists);
  }

  #tellAll(): void {
    for (const watcher of this.#board.watchers) watcher.registry.tell(watcher.url, watcher.listener);
  }
}

const boardRegistryType: RegistryExtension = {
  create: async (url, context) => new BoardRegistry(url, context),
  validate(url, setting) {
    const board = url.get("board");
    if (board !== undefined && !/^[a-z]+$/.test(board)) {
      throw new RpcError(
        `${setting}: board=${JSON.stringify(board)} is not a board name; the board registry wants lowercase letters`,
        Code.InvalidArgument,
      );
    }
  },
};

const boardPlugin = registryPlugin("board", boardRegistryType);

const quiet = { logger: silentLogger, env: false, application: { name: "board-app" } } as const;
const common = { ...quiet, plugins: [boardPlugin] } as const;

describe("a third-party registry plugin", () => {
  it("plugins - a provider and a consumer find each other through a registry registered by a plugin", async () => {
    const registry = { address: "board://local?board=greeters", useFileCache: false };
    const provider = await createDubbo({
      ...common,
      application: { name: "board-provider" },
      registry,
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
    });
    const consumer = await createDubbo({ ...common, application: { name: "board-consumer" }, registry });
    try {
      await provider.export(Greeter, { greet: (who) => `hello ${who}` }, { scope: "remote" });
      const greeter = await consumer.refer(Greeter);
      assert.equal(await greeter.greet("plugin"), "hello plugin");
    } finally {
      await consumer.stop();
      await provider.stop();
    }
  });

  it("plugins - the plugin checks its own settings when the application starts, with its own message", async () => {
    await assert.rejects(
      createDubbo({ ...common, registry: { address: "board://local", parameters: { board: "Bad" } } }),
      (error: unknown) =>
        error instanceof RpcError &&
        error.code === Code.InvalidArgument &&
        error.message.includes('registries.default: board="Bad" is not a board name'),
    );
  });

  it("plugins - without the plugin the registry type is unknown, and the message lists the registered ones", async () => {
    await assert.rejects(
      createDubbo({ ...quiet, registry: { address: "board://local" } }),
      /registries\.default\.address: "board" names no registry \(registered: zookeeper, dubbo\)/,
    );
  });

  it("plugins - a plugin that registers a name twice fails naming the plugin", async () => {
    const clash: Plugin = {
      name: "clash",
      register: (points) => {
        points.registry.register("zookeeper", boardRegistryType);
      },
    };
    await assert.rejects(
      createDubbo({ ...quiet, plugins: [clash] }),
      /plugin "clash": registry "zookeeper" is already registered/,
    );
  });
});
