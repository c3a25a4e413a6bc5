import { type ClientHttp2Stream, constants } from "node:http2";
import { BizError, Code, type Invocation, RpcError, type RpcResult, resultOf } from "../../core/index.js";
import { decodeHessian } from "../../serialize/index.js";
import { type AttemptScope, BoundedAttempt } from "./bounded-attempt.js";
import { GrpcResponse, type UnaryReading } from "./grpc-response.js";
import { TRI_EXCEPTION_CODE } from "./triple-headers.js";
import { decodeResponseWrapper } from "./wrapper-codec.js";
import type { WrapperSerializations } from "./wrapper-serialization.js";

/** A wrapper-mode attempt's scope: what bounds it, and what its answers may be serialized in. */
export interface WrapperScope extends AttemptScope {
  readonly serializations: WrapperSerializations;
}

function asBizError(value: unknown): BizError {
  if (value instanceof BizError) return value;
  if (value instanceof Error) return new BizError(value.message, { cause: value });
  return new BizError(`the provider answered with an exception that is not a Throwable: ${String(value)}`);
}

/**
 * One wrapper-mode unary attempt on its open stream, from the request sent to the decoded answer:
 * its bounds (a timeout or the call's signal resets the stream, RST_STREAM CANCEL, which ends the
 * call on the provider too), the answer read in one promise ({@link GrpcResponse.single}), and the
 * `TripleResponseWrapper`'s Hessian value, or the provider's exception. One object per call, the
 * reader of its own answer, as a unary call is most of a consumer's traffic.
 */
export class WrapperCall extends BoundedAttempt implements UnaryReading<RpcResult> {
  readonly #stream: ClientHttp2Stream;
  readonly #response: GrpcResponse;
  readonly #inv: Invocation;
  readonly #serializations: WrapperSerializations;
  #failure: RpcError | undefined;

  constructor(
    scope: WrapperScope,
    inv: Invocation,
    what: string,
    timeoutMs: number | undefined,
    stream: ClientHttp2Stream,
    payloadLimit: number,
  ) {
    super(scope, inv, what, timeoutMs);
    this.#stream = stream;
    this.#inv = inv;
    this.#serializations = scope.serializations;
    this.#response = new GrpcResponse(stream, what, payloadLimit);
    this.arm();
  }

  /** The call's result, once the stream has closed. */
  result(): Promise<RpcResult> {
    return this.#response.single(this);
  }

  protected cancel(reason: RpcError): void {
    this.#failure ??= reason;
    if (!this.#stream.closed) this.#stream.close(constants.NGHTTP2_CANCEL);
  }

  closed(): RpcError | undefined {
    this.disarm();
    return this.#failure;
  }

  decode(message: Buffer): RpcResult {
    const wrapper = decodeResponseWrapper(message);
    if (!this.#serializations.permits(wrapper.serializeType)) {
      // Java 3.3's client fails such an answer as INTERNAL ("Deserialize response failed").
      throw this.#serializations.refusal(
        wrapper.serializeType,
        Code.Internal,
        `${this.what}: the response`,
        "the provider should answer in the serialization of the request, or add it to the reference's `prefer.serialization`",
      );
    }
    const response = this.#response;
    const attachments = response.attachments();
    const exceptionCode = response.header(TRI_EXCEPTION_CODE);
    const isException = exceptionCode !== undefined && exceptionCode !== "0";
    if (wrapper.data === undefined) {
      if (isException) throw asBizError(undefined);
      return resultOf(null, attachments);
    }
    let value: unknown;
    try {
      const returnType = this.#inv.returnType;
      const type = returnType?.kind === "void" ? undefined : returnType;
      value = decodeHessian(wrapper.data, isException ? undefined : type);
    } catch (error) {
      const cause = RpcError.from(error, Code.Internal);
      throw new RpcError(
        `${this.what}: the response could not be decoded: ${cause.rawMessage}`,
        Code.Internal,
        {
          cause,
        },
      );
    }
    if (isException) throw asBizError(value);
    return resultOf(value, attachments);
  }
}
