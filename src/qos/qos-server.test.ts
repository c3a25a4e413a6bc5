import assert from "node:assert/strict";
import { connect } from "node:net";
import { describe, it } from "node:test";
import { silentLogger } from "../core/index.js";
import { waitFor } from "../testing/index.js";
import { QosServer } from "./qos-server.js";
import type { QosSite } from "./qos-site.js";

const site: QosSite = {
  version: "2.7.23",
  providers: () => [],
  consumers: () => [],
  servedUrls: () => [],
  setOnline: async () => false,
  isReady: () => false,
  configs: () => [],
  metricsText: () => "",
  methods: () => ({ found: "no service" }),
  invoke: async () => ({ found: "no service" }),
  setLogLevel: () => false,
  count: () => ({ found: "no service" }),
};
const quiet = silentLogger;

/** Writes `text` (if any) on a fresh connection and collects what comes back until `done` holds. */
async function exchange(
  port: number,
  text: string | undefined,
  done: (received: string) => boolean,
): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let closed = false;
  socket.setEncoding("utf8");
  socket.on("data", (c: string) => (received += c));
  socket.on("close", () => (closed = true));
  if (text !== undefined) socket.write(text);
  try {
    await waitFor("the QoS answer", () => done(received) || closed, 10_000);
    return received;
  } finally {
    socket.destroy();
  }
}

describe("QoS server", () => {
  it("listens on 127.0.0.1 only unless foreign IPs are accepted", async () => {
    const local = new QosServer(site, { port: 0, acceptForeignIp: false, logger: quiet });
    const open = new QosServer(site, { port: 0, acceptForeignIp: true, logger: quiet });
    try {
      await local.listen();
      await open.listen();
      assert.equal(local.host, "127.0.0.1");
      assert.equal(open.host, "0.0.0.0");
    } finally {
      await local.close();
      await open.close();
    }
  });

  it("a silent client is greeted with the prompt as a telnet session", async () => {
    const server = new QosServer(site, { port: 0, acceptForeignIp: false, logger: quiet });
    try {
      const port = await server.listen();
      assert.equal(await exchange(port, undefined, (r) => r.endsWith("dubbo>")), "dubbo>");
    } finally {
      await server.close();
    }
  });

  it("http - a false probe answers 503, a POST runs the command too, headers split across packets", async () => {
    const server = new QosServer(site, { port: 0, acceptForeignIp: false, logger: quiet });
    try {
      const port = await server.listen();
      const ready = await exchange(port, "GET /ready HTTP/1.1\r\nHost: x\r\n\r\n", (r) =>
        r.endsWith("false"),
      );
      assert.match(ready, /^HTTP\/1\.1 503 Service Unavailable\r\n/);
      assert.match(ready, /\r\nContent-Length: 5\r\n/);
      const version = await exchange(
        port,
        "POST /version HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        (r) => r.endsWith('"2.7.23"'),
      );
      assert.match(version, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\ndubbo version "2\.7\.23"$/);
    } finally {
      await server.close();
    }
  });
});
