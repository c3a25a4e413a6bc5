import { type ClientHttp2Stream, constants, type IncomingHttpHeaders } from "node:http2";
import { type Attachments, Code, RpcError } from "../../core/index.js";
import { MessageReader, messageBytes, messageEncodingOf } from "./grpc-frame.js";
import { codeOfGrpcStatus, codeOfHttpStatus, decodeGrpcMessage, GRPC_OK } from "./grpc-status.js";
import { readMessages } from "./message-stream.js";
import {
  GRPC_ENCODING,
  GRPC_MESSAGE,
  GRPC_STATUS,
  headerText,
  rawHeadersToAttachments,
} from "./triple-headers.js";

/** The caller of {@link GrpcResponse.single}: told when the stream closed, then handed the message. */
export interface UnaryReading<T> {
  /** The stream has closed (called first, whatever the answer): the failure the caller ended the call with, if any. */
  closed(): RpcError | undefined;
  decode(message: Buffer): T;
}

/** The response each stream of a {@link GrpcResponse} belongs to, read by the class's listeners. */
const RESPONSE = Symbol("triple response");

type ResponseStream = ClientHttp2Stream & { [RESPONSE]?: GrpcResponse };

/** What {@link GrpcResponse.single} is waiting with, until the stream has closed. */
interface PendingSingle {
  readonly reading: UnaryReading<unknown>;
  readonly reader: MessageReader;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  unreadable: RpcError | undefined;
}

/**
 * The answer on one client stream, read one way for every Triple call (wrapper mode and IDL): the
 * response headers, the messages (decoded from the `grpc-encoding` the headers name, each within
 * `payload`), then the status from the trailers (or from the headers of a trailers-only answer)
 * and the attachments both carry. A call that answers one message reads it with {@link single};
 * a streaming answer is pulled with {@link messages}. The stream's listeners are one function of
 * each kind for every stream (`this` is the stream, which points back at its response), so a call
 * makes no closure for them.
 */
export class GrpcResponse {
  readonly #stream: ClientHttp2Stream;
  readonly #what: string;
  readonly #limit: number;
  #headers: IncomingHttpHeaders = {};
  #trailers: IncomingHttpHeaders = {};
  /** The raw name/value lists of both blocks, which the attachments are read from. */
  #rawHeaders: string[] | undefined;
  #rawTrailers: string[] | undefined;
  /** What destroyed the stream when it is one of ours (the connection's keepalive names the missed PING). */
  #destroyedBy: RpcError | undefined;
  #single: PendingSingle | undefined;

  static readonly #onError = function (this: ResponseStream, error: Error): void {
    if (error instanceof RpcError) this[RESPONSE]!.#destroyedBy = error;
  };

  static readonly #onResponse = function (
    this: ResponseStream,
    headers: IncomingHttpHeaders,
    _flags: number,
    raw?: string[],
  ): void {
    const response = this[RESPONSE]!;
    response.#headers = headers;
    response.#rawHeaders = raw;
  };

  static readonly #onTrailers = function (
    this: ResponseStream,
    trailers: IncomingHttpHeaders,
    _flags: number,
    raw?: string[],
  ): void {
    const response = this[RESPONSE]!;
    response.#trailers = trailers;
    response.#rawTrailers = raw;
  };

  static readonly #onSingleData = function (this: ResponseStream, chunk: Buffer): void {
    const single = this[RESPONSE]!.#single!;
    if (single.unreadable !== undefined) return;
    try {
      single.reader.push(chunk);
    } catch (error) {
      single.unreadable = error as RpcError;
      this.close(constants.NGHTTP2_CANCEL);
    }
  };

  static readonly #onSingleClose = function (this: ResponseStream): void {
    const response = this[RESPONSE]!;
    const { reading, reader, resolve, reject, unreadable } = response.#single!;
    try {
      const canceled = reading.closed();
      const message = response.#onlyMessage(reader, unreadable ?? response.#destroyedBy ?? canceled);
      resolve(
        message instanceof Promise ? message.then((bytes) => reading.decode(bytes)) : reading.decode(message),
      );
    } catch (error) {
      reject(error);
    }
  };

  /** `what` names the call (`Service/Method to host:port`) in every error. */
  constructor(stream: ClientHttp2Stream, what: string, limit: number) {
    this.#stream = stream;
    this.#what = what;
    this.#limit = limit;
    (stream as ResponseStream)[RESPONSE] = this;
    // A failed stream ends its messages early; `single()` and `messages()` report it with the call's name.
    stream.on("error", GrpcResponse.#onError);
    // Each is emitted once per stream: `on` spares the wrapper `once` makes.
    stream.on("response", GrpcResponse.#onResponse);
    stream.on("trailers", GrpcResponse.#onTrailers);
  }

  /** What the answer's message errors name, spelled only when one needs it. */
  describe(): string {
    return `the response of ${this.#what}`;
  }

  /** Whether the provider answered with headers (it was reached, whatever the status). */
  get answered(): boolean {
    return this.#headers[":status"] !== undefined;
  }

  /**
   * The one message of a unary or client-streaming answer, read by the stream's events as it
   * arrives (no async iteration, so the call pays this one promise rather than several per
   * chunk), settled once the stream has closed: with `reading.decode` of the message's bytes, or
   * with the failure `reading.closed()` names, the provider's reset, the status's failure, or an
   * error saying how many messages came.
   */
  single<T>(reading: UnaryReading<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#single = {
        reading,
        reader: new MessageReader(this.#limit, this),
        resolve: resolve as (value: unknown) => void,
        reject,
        unreadable: undefined,
      };
      this.#stream.on("data", GrpcResponse.#onSingleData);
      this.#stream.on("close", GrpcResponse.#onSingleClose);
    });
  }

  #onlyMessage(reader: MessageReader, failed: RpcError | undefined): Buffer | Promise<Buffer> {
    if (failed !== undefined) throw failed;
    if (!this.#stream.readableEnded) throw this.#resetError();
    reader.finish();
    const failure = this.failure();
    if (failure !== undefined) throw failure;
    if (reader.messages.length !== 1) {
      throw new RpcError(
        `${this.#what}: the response carried ${reader.messages.length} messages; exactly one was expected`,
        Code.Internal,
      );
    }
    const encoding = messageEncodingOf(headerText(this.#headers, GRPC_ENCODING));
    return messageBytes(reader.messages[0]!, encoding, this.#limit, this);
  }

  /**
   * The response messages as they are read. A stream reset before its end fails with `canceled()`
   * when the caller reset it, else with an error naming the provider's HTTP/2 error code.
   */
  async *messages(canceled: () => RpcError | undefined): AsyncGenerator<Buffer> {
    if (!this.answered && !this.#stream.closed && !this.#stream.destroyed) {
      await new Promise<void>((resolve) => {
        this.#stream.once("response", () => resolve());
        this.#stream.once("close", resolve);
      });
    }
    const interrupted = (): RpcError => canceled() ?? this.#resetError();
    yield* readMessages(
      this.#stream,
      messageEncodingOf(headerText(this.#headers, GRPC_ENCODING)),
      this.#limit,
      `the response of ${this.#what}`,
      interrupted,
    );
  }

  /**
   * A stream the provider reset or closed early: before any answer the call never reached a
   * service and can be tried elsewhere (`Unavailable`); after one, it was being served (`Canceled`).
   */
  #resetError(): RpcError {
    const code = this.#stream.rstCode ?? constants.NGHTTP2_INTERNAL_ERROR;
    const message = `${this.#what}: the provider ${this.answered ? "reset the stream" : "closed the stream without answering"} (HTTP/2 error ${code})`;
    return new RpcError(message, this.answered ? Code.Canceled : Code.Unavailable);
  }

  /** After the last message: nothing for status OK, else the call's failure. */
  failure(): RpcError | undefined {
    // Closed before any answer (e.g. a TLS server the plain connection could not speak to).
    if (!this.answered) return this.#resetError();
    const status = headerText(this.#trailers, GRPC_STATUS) ?? headerText(this.#headers, GRPC_STATUS);
    if (status === undefined) {
      const httpStatus = Number(this.#headers[":status"] ?? 0);
      return new RpcError(
        `${this.#what}: the response has no grpc-status (HTTP ${httpStatus}); is the address a Triple or gRPC server?`,
        codeOfHttpStatus(httpStatus),
      );
    }
    if (Number(status) === GRPC_OK) return undefined;
    const message = decodeGrpcMessage(
      headerText(this.#trailers, GRPC_MESSAGE) ?? headerText(this.#headers, GRPC_MESSAGE) ?? "",
    );
    return new RpcError(`${this.#what}: ${message}`, codeOfGrpcStatus(Number(status)));
  }

  /** A response header's text (e.g. `tri-exception-code`). */
  header(name: string): string | undefined {
    return headerText(this.#headers, name);
  }

  /** The custom headers and trailers as attachments (trailers win). */
  attachments(): Attachments {
    return {
      ...rawHeadersToAttachments(this.#rawHeaders, this.#headers),
      ...rawHeadersToAttachments(this.#rawTrailers, this.#trailers),
    };
  }
}
