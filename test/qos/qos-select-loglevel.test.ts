// Java 3's `select` and `switchLogLevel` on a real QoS port: an `invoke` that several overloads
// take lists them, `select N` calls the N-th (per telnet session, as Java keeps it on the
// channel); `switchLogLevel` changes the level of the logger every layer of the application uses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDubbo, createLogger, defineService, java, type LogSink } from "../../src/index.js";
import { httpGet, Telnet } from "./qos-client.js";

const Echo = defineService("com.example.Echo", {
  echoText: { javaName: "echo", args: [java.String], returns: java.String },
  echoInt: { javaName: "echo", args: [java.int], returns: java.String },
  echoLong: { javaName: "echo", args: [java.long], returns: java.String },
});

describe("QoS select and switchLogLevel", () => {
  it("select calls the overload an ambiguous invoke listed; switchLogLevel switches the application's logger", async () => {
    const written: string[] = [];
    const record =
      (level: string) =>
      (_fields: unknown, message: string): void => {
        written.push(`${level} ${message}`);
      };
    const sink: LogSink = {
      error: record("error"),
      warn: record("warn"),
      info: record("info"),
      debug: record("debug"),
      trace: record("trace"),
    };
    const logger = createLogger({ sink, level: "warn" });
    await using app = await createDubbo({
      application: { name: "qos-select", qosPort: 0 },
      protocol: { name: "dubbo", host: "127.0.0.1", port: 0 },
      registry: { address: "N/A" },
      env: false,
      logger,
    });
    await app.export(Echo, {
      echoText: (s: string) => `text ${s}`,
      echoInt: (n: number) => `int ${n}`,
      echoLong: (n: number) => `long ${n}`,
    });
    await app.start();
    const telnet = new Telnet(app.qosPort);

    assert.match(
      await telnet.send('invoke Echo.echo("a")'),
      /^Use default service Echo\.\r\nresult: "text a"\r\nelapsed: \d+ ms\.\r\ndubbo>$/,
      "one overload takes a string",
    );
    assert.equal(
      await telnet.send("invoke Echo.echo(5)"),
      "Methods:\r\n1. echo(int)\r\n2. echo(long)\r\n" +
        "Please use the select command to select the method you want to invoke. eg: select 1\r\ndubbo>",
    );
    assert.match(
      await telnet.send("select 2"),
      /^Use default service Echo\.\r\nresult: "long 5"\r\nelapsed: \d+ ms\.\r\ndubbo>$/,
    );
    assert.match(await telnet.send("select 1"), /^Use default service Echo\.\r\nresult: "int 5"\r\n/);
    assert.equal(await telnet.send("select 3"), "Illegal index ,please input select 1~2\r\ndubbo>");
    assert.equal(
      await telnet.send("select"),
      "Please input the index of the method you want to invoke, eg: \r\n select 1\r\ndubbo>",
    );
    assert.equal(
      await new Telnet(app.qosPort).send("select 1"),
      "Please use the invoke command first.\r\ndubbo>",
      "another session has no invoke to select from",
    );
    assert.deepEqual(await httpGet(app.qosPort, "/select?index=1"), {
      status: 200,
      body: "Please use the invoke command first.",
    });

    logger.info("before the switch");
    assert.equal(await telnet.send("switchLogLevel info"), "OK\r\ndubbo>");
    logger.info("after switching to info");
    assert.equal(await telnet.send("switchLogLevel 6"), "OK\r\ndubbo>");
    logger.error("after switching off");
    assert.equal(await telnet.send("switchLogLevel 2"), "OK\r\ndubbo>");
    logger.debug("app", "after switching to debug");
    assert.deepEqual(
      written.filter((w) => w.includes("switch")),
      ["info after switching to info", "debug after switching to debug"],
    );
    assert.equal(await telnet.send("switchLogLevel"), "Unexpected argument length.\r\ndubbo>");
    assert.equal(
      await telnet.send("switchLogLevel loud"),
      "No log level loud: give one of ALL, TRACE, DEBUG, INFO, WARN, ERROR, OFF or its number 0-6\r\ndubbo>",
    );
  });
});
