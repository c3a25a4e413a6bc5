import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import type { Logger } from "../core/index.js";
import { type QosSession, runQosCommand } from "./commands.js";
import { CONSOLE_PATH, type ConsoleHandler } from "./console/index.js";
import type { QosSite } from "./qos-site.js";

/** Java's QoS prompt and line end (`QosProcessHandler`, `QosConstants.BR_STR`). */
const QOS_PROMPT = "dubbo>";
const BR = "\r\n";
/** How long a new connection may stay silent before it is greeted as a telnet session (Java: 500 ms). */
const WELCOME_DELAY_MS = 500;
const MAX_LINE_BYTES = 64 * 1024;

export interface QosServerOptions {
  readonly port: number;
  /** `qos.accept.foreign.ip`: listen on every interface instead of 127.0.0.1 only. */
  readonly acceptForeignIp: boolean;
  readonly logger: Logger;
  /** The web console, served under `/console` on this port; absent, `/console` is an unknown command. */
  readonly console?: ConsoleHandler | undefined;
}

/** HTTP when the first byte is `G` or `P` (GET, POST), as Java decides; telnet otherwise. */
function isHttp(first: Buffer): boolean {
  return first[0] === 0x47 || first[0] === 0x50;
}

function httpReply(socket: Socket, status: number, body: string): void {
  const reason =
    { 200: "OK", 400: "Bad Request", 404: "Not Found", 503: "Service Unavailable" }[status] ?? "";
  const bytes = Buffer.from(body, "utf8");
  socket.end(
    `HTTP/1.1 ${status} ${reason}${BR}Content-Type: text/plain; charset=utf-8${BR}Content-Length: ${bytes.length}${BR}Connection: close${BR}${BR}${body}`,
  );
}

/**
 * The QoS port: telnet and HTTP on one port. An HTTP request `GET /cmd?k=arg` runs `cmd` with the
 * query's values as arguments and closes; a telnet session gets the prompt and runs one command
 * per line until `quit`.
 */
export class QosServer {
  readonly #site: QosSite;
  readonly #options: QosServerOptions;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** Never listens: `/console` connections are handed to it whole, as a browser needs full HTTP. */
  readonly #console: HttpServer | undefined;

  constructor(site: QosSite, options: QosServerOptions) {
    this.#site = site;
    this.#options = options;
    this.#server = createServer((socket) => this.#accept(socket));
    this.#console = options.console && createHttpServer(options.console);
  }

  /** The address listened on (127.0.0.1, or 0.0.0.0 when foreign IPs are accepted), as bound. */
  get host(): string {
    const address = this.#server.address();
    if (typeof address === "object" && address !== null) return address.address;
    return this.#options.acceptForeignIp ? "0.0.0.0" : "127.0.0.1";
  }

  /** Listens; resolves with the bound port. */
  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.#options.port, this.host, () => {
        this.#server.off("error", reject);
        const address = this.#server.address();
        resolve(typeof address === "object" && address !== null ? address.port : this.#options.port);
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on("close", () => this.#sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const welcome = setTimeout(() => {
      socket.off("data", onFirst);
      socket.write(QOS_PROMPT);
      this.#telnet(socket, Buffer.alloc(0));
    }, WELCOME_DELAY_MS);
    const onFirst = (first: Buffer) => {
      clearTimeout(welcome);
      if (isHttp(first)) this.#http(socket, first);
      else this.#telnet(socket, first);
    };
    socket.once("data", onFirst);
    socket.on("close", () => clearTimeout(welcome));
  }

  #http(socket: Socket, first: Buffer): void {
    let head = first.toString("latin1");
    const answer = () => {
      const [, target = "/"] = head.split(" ", 2);
      const url = new URL(target, "http://qos");
      const name = url.pathname.split("/").filter((s) => s !== "")[0] ?? "";
      this.#run(name, [...url.searchParams.values()]).then(
        (a) => httpReply(socket, a.status, a.text),
        () => httpReply(socket, 500, ""),
      );
    };
    if (this.#isConsoleRequest(head)) {
      this.#toConsole(socket, head);
      return;
    }
    if (head.includes("\r\n\r\n")) {
      answer();
      return;
    }
    const more = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (head.length > MAX_LINE_BYTES) socket.destroy();
      else if (this.#isConsoleRequest(head)) {
        socket.off("data", more);
        this.#toConsole(socket, head);
      } else if (head.includes("\r\n\r\n")) {
        socket.off("data", more);
        answer();
      }
    };
    socket.on("data", more);
  }

  /** Whether the request line (once complete) asks for the console. */
  #isConsoleRequest(head: string): boolean {
    if (this.#console === undefined || !head.includes("\r\n")) return false;
    const target = head.split(" ", 2)[1] ?? "";
    return (
      target === CONSOLE_PATH ||
      target.startsWith(`${CONSOLE_PATH}/`) ||
      target.startsWith(`${CONSOLE_PATH}?`)
    );
  }

  /** Hands the connection, with the bytes read so far put back, to the console's HTTP server. */
  #toConsole(socket: Socket, head: string): void {
    socket.unshift(Buffer.from(head, "latin1"));
    this.#console?.emit("connection", socket);
  }

  #telnet(socket: Socket, first: Buffer): void {
    const session: QosSession = {};
    let pending = "";
    let chain = Promise.resolve();
    const onData = (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      if (pending.length > MAX_LINE_BYTES) {
        socket.destroy();
        return;
      }
      let end = pending.indexOf("\n");
      while (end >= 0) {
        const line = pending.slice(0, end).replace(/\r$/, "").trim();
        pending = pending.slice(end + 1);
        chain = chain.then(() => this.#telnetLine(socket, line, session));
        end = pending.indexOf("\n");
      }
    };
    socket.on("data", onData);
    if (first.length > 0) onData(first);
  }

  async #telnetLine(socket: Socket, line: string, session: QosSession): Promise<void> {
    if (socket.destroyed) return;
    if (line === "") {
      socket.write(QOS_PROMPT);
      return;
    }
    const [name = "", ...args] = line.split(/\s+/);
    const answer = await this.#run(name, args, session).catch((error: unknown) => ({
      text: `${name} failed: ${error instanceof Error ? error.message : String(error)}`,
      status: 500,
      close: false,
    }));
    if (answer.close) socket.end(answer.text);
    else socket.write(`${answer.text}${BR}${QOS_PROMPT}`);
  }

  #run(name: string, args: readonly string[], session: QosSession = {}) {
    return runQosCommand(this.#site, name, args, session).catch((error: unknown) => {
      this.#options.logger.warn(`the QoS command ${name} failed`, error);
      throw error;
    });
  }
}
