import {
  type Attachments,
  Code,
  DEFAULT_SERVICE_VERSION,
  DEFAULT_TIMEOUT_MS,
  DUBBO_PROTOCOL_VERSION,
  type Invocation,
  type Invoker,
  type JavaType,
  parameterDescriptor,
  RpcError,
  type RpcResult,
  resultOf,
  type Url,
} from "../../core/index.js";
import type { CallLabels, ExchangeClient } from "../../exchange/index.js";
import type { ConnectionHolder } from "../../transport/index.js";
import { BodyWriterSlot } from "./codec/body-writer.js";
import { encodeRequestBody } from "./codec/request-body.js";
import { decodeResponseBody } from "./codec/response-body.js";

/** A method's call settings, read from the reference URL once (first call), never per call. */
interface MethodPlan {
  readonly labels: CallLabels;
  readonly timeoutMs: number;
  readonly oneWay: boolean;
}

const ONE_WAY_RESULT = resultOf(undefined);

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
 * the response into a result, a `BizError` (the provider's exception) or an `RpcError`.
 */
export class DubboInvoker implements Invoker {
  readonly url: Url;
  readonly #holder: ConnectionHolder<ExchangeClient>;
  readonly #address: string;
  readonly #path: string;
  readonly #version: string;
  /** Attachments every call carries (Java's AbstractInvoker: interface, group, token). */
  readonly #base: Readonly<Record<string, unknown>>;
  readonly #plans = new Map<string, MethodPlan>();
  readonly #slot = new BodyWriterSlot();
  readonly #lazy: boolean;
  #connectedOnce = false;
  #destroyed = false;

  constructor(url: Url, holder: ConnectionHolder<ExchangeClient>, options: { readonly lazy: boolean }) {
    this.url = url;
    this.#holder = holder;
    this.#address = url.address;
    this.#path = url.path || url.serviceInterface;
    this.#version = url.string("version", DEFAULT_SERVICE_VERSION);
    this.#lazy = options.lazy;
    const base: Record<string, unknown> = { interface: url.serviceInterface };
    const group = url.get("group");
    if (group !== undefined && group !== "") base.group = group;
    const token = url.get("token");
    if (token !== undefined && token !== "") base.token = token;
    this.#base = Object.freeze(base);
  }

  #plan(method: string): MethodPlan {
    let plan = this.#plans.get(method);
    if (plan === undefined) {
      plan = Object.freeze({
        labels: Object.freeze({ service: this.url.serviceInterface, method }),
        timeoutMs: this.url.methodNumber(method, "timeout", DEFAULT_TIMEOUT_MS),
        oneWay: !this.url.methodBoolean(method, "return", true),
      });
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
    let timeoutMs = plan.timeoutMs;
    if (inv.deadline !== undefined) {
      const left = inv.deadline - Date.now();
      if (left <= 0) {
        return Promise.reject(
          new RpcError(
            `${plan.labels.service}.${inv.method} to ${this.#address}: the call's deadline passed before it was sent`,
            Code.DeadlineExceeded,
          ),
        );
      }
      if (left < timeoutMs) timeoutMs = left;
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

  #attachments(inv: Invocation, timeoutMs: number): Attachments {
    // Invocation attachments may override interface/group/token (as Java adds those if absent);
    // path and version always name this reference.
    return {
      ...this.#base,
      timeout: String(timeoutMs),
      ...inv.attachments,
      path: this.#path,
      version: this.#version,
    };
  }

  #send(client: ExchangeClient, inv: Invocation, plan: MethodPlan, timeoutMs: number): Promise<RpcResult> {
    this.#connectedOnce = true;
    let body: Buffer;
    try {
      body = encodeRequestBody(this.#slot, {
        dubboVersion: DUBBO_PROTOCOL_VERSION,
        path: this.#path,
        version: this.#version,
        method: inv.method,
        descriptor: descriptorOf(inv.parameterTypes),
        parameterTypes: inv.parameterTypes,
        args: inv.args,
        attachments: this.#attachments(inv, timeoutMs),
      });
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
        client.send(body, plan.labels);
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(ONE_WAY_RESULT);
    }
    return client.request(body, plan.labels, timeoutMs).then((response) => {
      let decoded: ReturnType<typeof decodeResponseBody>;
      try {
        decoded = decodeResponseBody(response.body, inv.returnType);
      } catch (error) {
        const cause = RpcError.from(error, Code.Internal);
        throw new RpcError(
          `${plan.labels.service}.${inv.method}: the response from ${this.#address} could not be decoded: ${cause.rawMessage}`,
          Code.Internal,
          { cause },
        );
      }
      if (decoded.exception !== undefined) throw decoded.exception;
      return resultOf(decoded.value, decoded.attachments);
    });
  }

  isAvailable(): boolean {
    if (this.#destroyed) return false;
    if (this.#holder.isAvailable(this.#address)) return true;
    // A lazy reference that never connected is worth trying (Java's LazyConnectExchangeClient).
    return this.#lazy && !this.#connectedOnce;
  }

  async destroy(): Promise<void> {
    if (this.#destroyed) return;
    this.#destroyed = true;
    await this.#holder.close();
  }
}
