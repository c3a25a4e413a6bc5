import {
  type Attachments,
  AttemptTimeouts,
  Code,
  cancelableSignal,
  DEFAULT_SERVICE_VERSION,
  DUBBO_PROTOCOL_VERSION,
  hasAnyAttachment,
  type Invocation,
  type Invoker,
  type JavaType,
  parameterDescriptor,
  RpcError,
  type RpcResult,
  resultOf,
  TIMEOUT_ATTACHMENT,
  type Url,
} from "../../core/index.js";
import type { Serialization, SerializationTable } from "../../serialize/index.js";
import type { ConnectionHolder } from "../../transport/index.js";
import { BodyOutputSlot } from "./codec/body-output.js";
import { KeptInput } from "./codec/kept-input.js";
import {
  type AttachmentParts,
  type EncodedRecord,
  encodeAttachments,
  encodeRequestFrame,
  encodeRequestHead,
} from "./codec/request-body.js";
import { decodeResponseBody } from "./codec/response-body.js";
import type { CallLabels, ExchangeClient, ResponseReader } from "./exchange/index.js";

/**
 * A method's call settings, read from the reference URL once (first call), never per call, and the
 * constant parts of its request bodies, encoded once.
 */
interface MethodPlan {
  readonly labels: CallLabels;
  readonly oneWay: boolean;
  /** The parameter types `head` was encoded for (a stub passes the same array on every call). */
  headTypes: readonly JavaType[] | undefined;
  /** Dubbo version, path, version, method and descriptor, encoded in the reference's serialization. */
  head: Buffer | undefined;
  /**
   * The call attachments `encodedAttachments` were encoded with: none, or a frozen record of
   * scalars a stub passes on every call (a generic stub's `{ generic }`, a plan's constants).
   */
  encodedFor: Attachments | undefined;
  /** The own attachments of the last call that was not spliced: a record seen twice in a row is kept. */
  lastOwn: Attachments | undefined;
  /** The whole attachments map of such calls, encoded, by the `timeout` they carry. */
  readonly encodedAttachments: Map<number, Buffer>;
  /** Decodes this method's responses, for the return type it was made for (a stub's never changes). */
  reader: { readonly returnType: JavaType | undefined; readonly read: ResponseReader<RpcResult> } | undefined;
}

/** Distinct `timeout` values whose encoded attachments a method keeps (per-call timeouts add some). */
const ENCODED_ATTACHMENTS_LIMIT = 8;

/**
 * Whether a call's own attachments are the same bytes on every call that passes this very record:
 * frozen, so they cannot change, and scalars only, so their encoding needs no class definition or
 * back-reference of the body and can be spliced into any request.
 */
function isConstantRecord(record: Attachments): boolean {
  if (!Object.isFrozen(record)) return false;
  for (const key in record) {
    const value = record[key];
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return false;
  }
  return true;
}

const ONE_WAY_RESULT = resultOf(undefined);
const NO_ATTACHMENTS: Attachments = Object.freeze({});

/** Stubs pass the same parameter-type array on every call: its descriptor is built once. */
const descriptors = new WeakMap<readonly JavaType[], string>();

function descriptorOf(types: readonly JavaType[]): string {
  let descriptor = descriptors.get(types);
  if (descriptor === undefined) {
    descriptor = parameterDescriptor(types);
    descriptors.set(types, descriptor);
  }
  return descriptor;
}

/**
 * The consumer side of one provider over the dubbo protocol (Java's DubboInvoker): encodes the
 * invocation as a Dubbo 2 request body, sends it on one of the reference's connections, and turns
 * the response into a result, a `BizError` (the provider's exception) or an `RpcError`. Each call
 * waits at most its `timeout` (the call's own `timeout` attachment, else the method's setting on
 * this provider's URL), which is also sent to the provider; the call's signal reaches the exchange,
 * so aborting it frees the pending request at once.
 */
export class DubboInvoker implements Invoker {
  readonly url: Url;
  readonly #holder: ConnectionHolder<ExchangeClient>;
  readonly #address: string;
  readonly #path: string;
  readonly #version: string;
  /** Attachments every call carries (Java's AbstractInvoker: interface, group, token). */
  readonly #base: Readonly<Record<string, unknown>>;
  // Made at the first call: a lazy reference to one of 10 000 providers may never be called, and
  // these would be ~0.65 KiB of its heap (two empty maps and the timeouts' own).
  #plans: Map<string, MethodPlan> | undefined;
  #constantsByTimeout: Map<number, EncodedRecord> | undefined;
  #timeouts: AttemptTimeouts | undefined;
  readonly #slot: BodyOutputSlot;
  readonly #serializations: SerializationTable;
  /** The input responses are read with, made at the first response (made per body, it cost ~290 B). */
  #responseInputs: KeptInput | undefined;
  readonly #onDestroy: ((invoker: DubboInvoker) => void) | undefined;
  #destroyed = false;

  constructor(
    url: Url,
    holder: ConnectionHolder<ExchangeClient>,
    options: {
      /** What the requests are written in (the URL's `serialization`, as the protocol chose it). */
      readonly serialization: Serialization;
      /** Where a response's header id finds the serialization its body is in. */
      readonly serializations: SerializationTable;
      /** Told once when this invoker is destroyed (its protocol stops holding it). */
      readonly onDestroy?: (invoker: DubboInvoker) => void;
    },
  ) {
    this.url = url;
    this.#holder = holder;
    this.#address = url.address;
    this.#path = url.path || url.serviceInterface;
    this.#version = url.string("version", DEFAULT_SERVICE_VERSION);
    this.#onDestroy = options.onDestroy;
    this.#slot = new BodyOutputSlot(options.serialization);
    this.#serializations = options.serializations;
    const base: Record<string, unknown> = { interface: url.serviceInterface };
    const group = url.get("group");
    if (group !== undefined && group !== "") base.group = group;
    const token = url.get("token");
    if (token !== undefined && token !== "") base.token = token;
    this.#base = Object.freeze(base);
  }

  #plan(method: string): MethodPlan {
    this.#plans ??= new Map();
    let plan = this.#plans.get(method);
    if (plan === undefined) {
      plan = {
        labels: Object.freeze({
          service: this.url.serviceInterface,
          method,
          serializationId: this.#slot.serialization.id,
        }),
        oneWay: !this.url.methodBoolean(method, "return", true),
        headTypes: undefined,
        head: undefined,
        encodedFor: NO_ATTACHMENTS,
        lastOwn: undefined,
        encodedAttachments: new Map(),
        reader: undefined,
      };
      this.#plans.set(method, plan);
    }
    return plan;
  }

  invoke(inv: Invocation): Promise<RpcResult> {
    if (this.#destroyed) {
      return Promise.reject(
        new RpcError(
          `${this.url.serviceInterface}.${inv.method}: the reference to ${this.#address} was destroyed`,
          Code.Unavailable,
        ),
      );
    }
    const plan = this.#plan(inv.method);
    this.#timeouts ??= new AttemptTimeouts(this.url);
    const timeoutMs = this.#timeouts.of(inv);
    if (timeoutMs <= 0) {
      return Promise.reject(
        new RpcError(
          `${plan.labels.service}.${inv.method} to ${this.#address}: the call's deadline passed before it was sent`,
          Code.DeadlineExceeded,
        ),
      );
    }
    const client = this.#holder.current(this.#address);
    if (client !== undefined) return this.#send(client, inv, plan, timeoutMs);
    return this.#holder.get(this.#address).then(
      (c) => this.#send(c, inv, plan, timeoutMs),
      (error: unknown) => {
        const cause = RpcError.from(error, Code.Unavailable);
        throw new RpcError(`${plan.labels.service}.${inv.method}: ${cause.rawMessage}`, cause.code, {
          cause,
        });
      },
    );
  }

  #attachments(own: Attachments, timeoutMs: number): Attachments {
    // Invocation attachments may override interface/group/token (as Java adds those if absent);
    // the attempt's timeout, path and version always name this attempt and this reference.
    return {
      ...this.#base,
      ...own,
      [TIMEOUT_ATTACHMENT]: String(timeoutMs),
      path: this.#path,
      version: this.#version,
    };
  }

  #headOf(plan: MethodPlan, inv: Invocation): Buffer {
    if (plan.head !== undefined && plan.headTypes === inv.parameterTypes) return plan.head;
    const head = encodeRequestHead(this.#slot, {
      dubboVersion: DUBBO_PROTOCOL_VERSION,
      path: this.#path,
      version: this.#version,
      method: inv.method,
      descriptor: descriptorOf(inv.parameterTypes),
    });
    plan.head = head;
    plan.headTypes = inv.parameterTypes;
    return head;
  }

  /**
   * The attachments of a call written with its request: the reference's constant ones and the
   * attempt's (`timeout`, `path`, `version`) spliced from their bytes, then the call's own, in one
   * map; unless the call's own name one of the others, when they are merged (and encoded whole) as
   * {@link #attachments} says, which a splice could not keep: the call's own override the
   * reference's but not the attempt's.
   */
  #inlineAttachments(own: Attachments, timeoutMs: number): Attachments | AttachmentParts {
    for (const key in own) {
      if (key in this.#base || key === TIMEOUT_ATTACHMENT || key === "path" || key === "version") {
        return this.#attachments(own, timeoutMs);
      }
    }
    return [this.#constantsOf(timeoutMs), own];
  }

  /** The reference's constant attachments and the attempt's, and their map encoded, per timeout. */
  #constantsOf(timeoutMs: number): EncodedRecord {
    this.#constantsByTimeout ??= new Map();
    let constants = this.#constantsByTimeout.get(timeoutMs);
    if (constants === undefined) {
      const record = this.#attachments(NO_ATTACHMENTS, timeoutMs);
      constants = { record, bytes: encodeAttachments(this.#slot, record) };
      if (this.#constantsByTimeout.size >= ENCODED_ATTACHMENTS_LIMIT) this.#constantsByTimeout.clear();
      this.#constantsByTimeout.set(timeoutMs, constants);
    }
    return constants;
  }

  /**
   * The call's attachments: the reference's constants encoded once per timeout when the call adds
   * none of its own, its method's encoded once per timeout when it passes the same constant record
   * as the call before it, else written with the request. A record seen
   * once (a context's snapshot, new on every call) is not worth encoding apart and copying.
   */
  #attachmentsOf(
    plan: MethodPlan,
    inv: Invocation,
    timeoutMs: number,
  ): Buffer | Attachments | AttachmentParts {
    // A record without keys adds nothing, whichever object it is: the constants' own map is the call's.
    if (!hasAnyAttachment(inv.attachments)) return this.#constantsOf(timeoutMs).bytes;
    const own = inv.attachments;
    if (own !== plan.encodedFor) {
      if (own !== plan.lastOwn || !isConstantRecord(own)) {
        plan.lastOwn = own;
        return this.#inlineAttachments(own, timeoutMs);
      }
      plan.encodedFor = own;
      plan.encodedAttachments.clear();
    }
    let encoded = plan.encodedAttachments.get(timeoutMs);
    if (encoded === undefined) {
      encoded = encodeAttachments(this.#slot, this.#attachments(own, timeoutMs));
      if (plan.encodedAttachments.size >= ENCODED_ATTACHMENTS_LIMIT) plan.encodedAttachments.clear();
      plan.encodedAttachments.set(timeoutMs, encoded);
    }
    return encoded;
  }

  #send(client: ExchangeClient, inv: Invocation, plan: MethodPlan, timeoutMs: number): Promise<RpcResult> {
    let frame: Buffer;
    try {
      frame = encodeRequestFrame(
        this.#slot,
        this.#headOf(plan, inv),
        inv.parameterTypes,
        inv.args,
        this.#attachmentsOf(plan, inv, timeoutMs),
      );
    } catch (error) {
      const cause = RpcError.from(error, Code.InvalidArgument);
      return Promise.reject(
        new RpcError(
          `${plan.labels.service}.${inv.method}: cannot encode the call: ${cause.rawMessage}`,
          cause.code,
          {
            cause,
          },
        ),
      );
    }
    if (plan.oneWay || inv.oneWay) {
      try {
        client.sendFramed(frame, plan.labels);
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(ONE_WAY_RESULT);
    }
    const signal = cancelableSignal(inv.signal);
    return client.requestFramed(frame, plan.labels, timeoutMs, signal, this.#readerOf(plan, inv.returnType));
  }

  /** The method's response decoder for `returnType`, made once and kept on the plan. */
  #readerOf(plan: MethodPlan, returnType: JavaType | undefined): ResponseReader<RpcResult> {
    if (plan.reader !== undefined && plan.reader.returnType === returnType) return plan.reader.read;
    const read = (body: Buffer, serializationId: number): RpcResult => {
      let decoded: ReturnType<typeof decodeResponseBody>;
      try {
        const serialization = this.#serializationOf(serializationId);
        decoded = decodeResponseBody(serialization, body, returnType, this.#inputsFor(serialization));
      } catch (error) {
        const cause = RpcError.from(error, Code.Internal);
        throw new RpcError(
          `${plan.labels.service}.${plan.labels.method}: the response from ${this.#address} could not be decoded: ${cause.rawMessage}`,
          Code.Internal,
          { cause },
        );
      }
      if (decoded.exception !== undefined) throw decoded.exception;
      return resultOf(decoded.value, decoded.attachments);
    };
    plan.reader = { returnType, read };
    return read;
  }

  /** The kept input for responses in `serialization` (one in another than the first gets its own). */
  #inputsFor(serialization: Serialization): KeptInput {
    const kept = this.#responseInputs;
    if (kept?.serialization === serialization) return kept;
    const made = new KeptInput(serialization);
    this.#responseInputs ??= made;
    return made;
  }

  /** The serialization a response's header names (a provider answers in the request's, as Java does). */
  #serializationOf(serializationId: number): Serialization {
    const serialization = this.#serializations.byId(serializationId);
    if (serialization !== undefined) return serialization;
    throw new RpcError(
      `its body is in serialization id ${serializationId}, which this application does not have ` +
        `(registered: ${this.#serializations.describe()}; it sent ${this.#slot.serialization.name}, id ${this.#slot.serialization.id})`,
      Code.Internal,
    );
  }

  /**
   * Calls waiting for their responses on the links this reference uses (a shared link counts every
   * reference's calls on it), for diagnostics.
   */
  get pendingCount(): number {
    let count = 0;
    for (const client of this.#holder.links(this.#address)) count += client.pendingCount;
    return count;
  }

  isAvailable(): boolean {
    if (this.#destroyed) return false;
    // A lazy reference not tried yet is worth trying, as Java's LazyConnectExchangeClient says it
    // is connected until its first request makes the real client; after that, the link decides.
    return this.#holder.isAvailable(this.#address) || this.#holder.isUntried(this.#address);
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#onDestroy?.(this);
    await this.#holder.close();
  }
}
