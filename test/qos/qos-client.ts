// Clients of a QoS port for the tests: one HTTP GET, and a telnet-style session.
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { waitFor } from "../../src/testing/index.js";

export function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A telnet-style session: send a line, read up to the next `dubbo>` prompt (or the close). */
export class Telnet {
  #buffer = "";
  #closed = false;
  readonly #socket: Socket;
  constructor(port: number) {
    this.#socket = connect(port, "127.0.0.1");
    this.#socket.setEncoding("utf8");
    this.#socket.on("data", (c: string) => (this.#buffer += c));
    this.#socket.on("close", () => (this.#closed = true));
  }
  async send(line: string): Promise<string> {
    this.#buffer = "";
    this.#socket.write(`${line}\r\n`);
    await waitFor(`the answer to ${line}`, () => this.#buffer.endsWith("dubbo>") || this.#closed, 10_000);
    return this.#buffer;
  }
  get closed(): boolean {
    return this.#closed;
  }
}
