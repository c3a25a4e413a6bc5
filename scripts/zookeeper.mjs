// Starts a real standalone ZooKeeper (Debian's `zookeeper` package) for tests: a free loopback port,
// a fresh temp data dir, a generated zoo.cfg with a short tick so session-expiry tests are fast.
// The server runs in its own process group and is stopped by pid, never by name.
//
//   import { startZooKeeper } from "../../scripts/zookeeper.mjs";
//   const zk = await startZooKeeper();          // one server per test file (the JVM takes seconds)
//   ... zookeeper://${zk.connectString} ...
//   await zk.restart();                         // same port, same data: sessions survive if quick
//   await zk.halt(); zk.wipeData(); await zk.start();  // same port, data lost
//   await zk.stop();                            // in after(); also removes the data dir
//
// Run it by hand: `node scripts/zookeeper.mjs` prints the connect string and runs until Ctrl-C.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const JAVA_DIR = "/usr/share/java";
const ZOOKEEPER_JAR = `${JAVA_DIR}/zookeeper.jar`;
const STANDALONE_MAIN = "org.apache.zookeeper.server.ZooKeeperServerMain";
export const HOST = "127.0.0.1";
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

/** Every server this process started, so a crashed test run does not leave a JVM behind. */
export const running = new Set();
let exitHookInstalled = false;

export function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pid of running) killGroup(pid, "SIGKILL");
  });
}

export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Loopback ports below Linux's ephemeral range (32768–60999 by default): a port found free there
 * cannot be taken by a connection's source port (the suite's own, or the JVMs dialling each other)
 * or by a `listen(0)` between our check and the JVM's bind.
 */
const PORT_RANGE = { low: 20_000, high: 32_768 };
const handedOut = new Set();

function bindable(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** A loopback port nothing listens on now, never handed out twice by this process. */
export async function freePort() {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.low + Math.floor(Math.random() * (PORT_RANGE.high - PORT_RANGE.low));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free loopback port in ${PORT_RANGE.low}–${PORT_RANGE.high} after 200 tries`);
}

/** Sends a four-letter command (`ruok`, `stat`, `cons`, ...) and returns the reply text. */
export function fourLetterWord(port, word, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: HOST, port });
    let reply = "";
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no reply to ${word} within ${timeoutMs} ms`)),
    );
    socket.on("connect", () => socket.write(word));
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(reply));
  });
}

/** Writes `zoo.cfg` in `dataDir`: the settings every test server shares, then `extraLines`. */
export function writeConfig(dataDir, port, extraLines = ["tickTime=500"]) {
  const file = join(dataDir, "zoo.cfg");
  writeFileSync(
    file,
    [
      ...extraLines,
      "minSessionTimeout=1000",
      "maxSessionTimeout=60000",
      `dataDir=${join(dataDir, "data")}`,
      `clientPort=${port}`,
      `clientPortAddress=${HOST}`,
      "admin.enableServer=false",
      "4lw.commands.whitelist=*",
      "maxClientCnxns=0",
      "",
    ].join("\n"),
  );
  return file;
}

export function assertInstalled() {
  if (!existsSync(ZOOKEEPER_JAR)) {
    throw new Error(
      `ZooKeeper is not installed (${ZOOKEEPER_JAR} is missing): run \`sudo apt-get install -y zookeeper\``,
    );
  }
}

export function launch(configFile, logFile, mainClass = STANDALONE_MAIN) {
  const classpath = [ZOOKEEPER_JAR, `${JAVA_DIR}/slf4j-simple.jar`].join(":");
  const log = openSync(logFile, "a");
  const child = spawn(
    "java",
    ["-Xms32m", "-Xmx256m", "-XX:+UseSerialGC", "-cp", classpath, mainClass, configFile],
    { detached: true, stdio: ["ignore", log, log] },
  );
  child.unref();
  return child;
}

export async function waitUntilServing(port, child, logFile) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw Object.assign(
        new Error(`ZooKeeper exited during start (code ${child.exitCode}); see ${logFile}`),
        { exitCode: child.exitCode },
      );
    try {
      // `ruok` says imok before the server serves requests; `srvr` reports a Mode only once it does.
      if (
        (await fourLetterWord(port, "ruok", 1000)) === "imok" &&
        /Mode:/.test(await fourLetterWord(port, "srvr", 1000))
      )
        return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `ZooKeeper did not answer ruok on ${HOST}:${port} within ${START_TIMEOUT_MS} ms; see ${logFile}`,
  );
}

function waitForExit(child, timeoutMs) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  killGroup(child.pid, "SIGTERM");
  if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
    killGroup(child.pid, "SIGKILL");
    await waitForExit(child, STOP_TIMEOUT_MS);
  }
}

/**
 * One ZooKeeper JVM on `port` with `configFile`, which can be stopped (SIGTERM, then SIGKILL),
 * killed (SIGKILL at once, as a crash) and started again on the same port and data.
 */
export function serverProcess(port, configFile, logFile, mainClass = STANDALONE_MAIN) {
  installExitHook();
  let child;
  const forget = () => running.delete(child.pid);
  return {
    get pid() {
      return child.pid;
    },
    get alive() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    /** Launches the JVM; with `wait` (default) resolves once it serves requests. */
    async start(wait = true) {
      child = launch(configFile, logFile, mainClass);
      running.add(child.pid);
      if (wait) await this.serving();
    },
    async serving() {
      try {
        await waitUntilServing(port, child, logFile);
      } catch (error) {
        await stopChild(child);
        forget();
        throw error;
      }
    },
    async halt() {
      await stopChild(child);
      forget();
    },
    /** `kill -9` by pid, as a crashed machine would. */
    async kill() {
      killGroup(child.pid, "SIGKILL");
      await waitForExit(child, STOP_TIMEOUT_MS);
      forget();
    },
  };
}

/**
 * Starts a standalone ZooKeeper on a free loopback port (or `options.port`).
 * @returns {Promise<import("./zookeeper.d.mts").ZooKeeperServer>}
 */
export async function startZooKeeper(options = {}) {
  assertInstalled();
  const dataDir = mkdtempSync(join(tmpdir(), "dubbo-ts-zk-"));
  const port = options.port ?? (await freePort());
  const logFile = join(dataDir, "zookeeper.log");
  const server = serverProcess(port, writeConfig(dataDir, port), logFile);
  await server.start();
  let removed = false;
  return {
    port,
    connectString: `${HOST}:${port}`,
    dataDir,
    logFile,
    get pid() {
      return server.pid;
    },
    /** Stops the server and keeps the data dir, so `start()` brings back the same tree and sessions. */
    halt: () => server.halt(),
    /** Deletes the halted server's snapshots and logs: the next `start()` is a server that lost its data. */
    wipeData() {
      if (server.alive) throw new Error("wipeData() needs a halted server (call halt() first)");
      rmSync(join(dataDir, "data"), { recursive: true, force: true });
    },
    start: () => server.start(),
    async restart() {
      await server.halt();
      await server.start();
    },
    async stop() {
      await server.halt();
      if (!removed && options.keepData !== true) rmSync(dataDir, { recursive: true, force: true });
      removed = true;
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const zk = await startZooKeeper();
  process.stdout.write(
    `ZooKeeper ${zk.connectString} (pid ${zk.pid}, data ${zk.dataDir}); Ctrl-C stops it\n`,
  );
  const stop = () => zk.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  setInterval(() => {}, 1 << 30);
}
