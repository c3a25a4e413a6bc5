import { type ClientHttp2Stream, constants } from "node:http2";
import {
  type Attachments,
  Code,
  type IdlMessageStream,
  type IdlMethod,
  RpcError,
  sendsOneMessage,
} from "../../core/index.js";
import type { MessageEncoding } from "./grpc-frame.js";
import { GrpcResponse } from "./grpc-response.js";
import { writeMessage } from "./message-stream.js";

async function* single(value: unknown): AsyncGenerator<unknown> {
  yield value;
}

/**
 * One IDL call's HTTP/2 stream on the consumer side: request messages go out as they are pulled
 * (waiting for `drain`), responses are read as the caller pulls them. `cancel` resets the stream
 * (RST_STREAM CANCEL); breaking out of `responses()` does too, so the server sees CANCELLED.
 */
export class IdlCall {
  readonly #stream: ClientHttp2Stream;
  readonly #method: IdlMethod;
  readonly #limit: number;
  readonly #what: string;
  readonly #response: GrpcResponse;
  #failure: RpcError | undefined;
  #attachments: Attachments = {};

  constructor(stream: ClientHttp2Stream, method: IdlMethod, limit: number, what: string) {
    this.#stream = stream;
    this.#method = method;
    this.#limit = limit;
    this.#what = what;
    this.#response = new GrpcResponse(stream, what, limit);
  }

  /** Resets the stream; the call fails with `reason` (the first one given). */
  cancel(reason: RpcError): void {
    this.#failure ??= reason;
    if (!this.#stream.closed) this.#stream.close(constants.NGHTTP2_CANCEL);
  }

  /** Runs `cleanup` once the stream has closed, however it ended. */
  onClose(cleanup: () => void): void {
    if (this.#stream.closed) cleanup();
    else this.#stream.once("close", cleanup);
  }

  /** Sends the call's input: the one request of a unary or server-streaming call, else each of the iterable's. */
  send(input: unknown, encoding: MessageEncoding): void {
    const requests = sendsOneMessage(this.#method.kind) ? single(input) : (input as AsyncIterable<unknown>);
    void this.#sendAll(requests, encoding);
  }

  async #sendAll(requests: AsyncIterable<unknown>, encoding: MessageEncoding): Promise<void> {
    try {
      for await (const message of requests) {
        if (this.#failure !== undefined || this.#stream.closed) return;
        const bytes = this.#method.encodeRequest(message);
        await writeMessage(this.#stream, bytes, encoding, this.#limit, this.#what);
      }
      if (!this.#stream.closed) this.#stream.end();
    } catch (error) {
      this.cancel(RpcError.from(error, Code.Canceled));
    }
  }

  /** The response messages; ends after status OK, throws the call's failure otherwise. */
  async *responses(): AsyncGenerator<unknown> {
    let ended = false;
    try {
      for await (const bytes of this.#response.messages(() => this.#failure)) {
        if (this.#failure !== undefined) throw this.#failure;
        yield this.#method.decodeResponse(bytes);
      }
      if (this.#failure !== undefined) throw this.#failure;
      ended = true;
      this.#attachments = this.#response.attachments();
      const failure = this.#response.failure();
      if (failure !== undefined) throw failure;
    } finally {
      if (!ended) this.cancel(new RpcError(`${this.#what}: the caller stopped reading`, Code.Canceled));
    }
  }

  /** The one answer of a unary or client-streaming call. */
  only(): Promise<unknown> {
    return this.#response.single({
      closed: () => this.#failure,
      decode: (bytes) => {
        this.#attachments = this.#response.attachments();
        return this.#method.decodeResponse(bytes);
      },
    });
  }

  /** The response as a stream whose `attachments` are filled once it ends. */
  stream(): IdlMessageStream {
    const call = this;
    return {
      [Symbol.asyncIterator]: () => call.responses(),
      get attachments() {
        return call.#attachments;
      },
    };
  }

  /** The response's attachments, once `responses()` has ended. */
  get attachments(): Attachments {
    return this.#attachments;
  }
}
