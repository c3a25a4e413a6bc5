import { Code } from "../../../core/index.js";

/** Response status bytes of Dubbo 2 (Java's `Response`). */
export const Status = {
  OK: 20,
  SERIALIZATION_ERROR: 25,
  CLIENT_TIMEOUT: 30,
  SERVER_TIMEOUT: 31,
  CHANNEL_INACTIVE: 35,
  BAD_REQUEST: 40,
  BAD_RESPONSE: 50,
  SERVICE_NOT_FOUND: 60,
  SERVICE_ERROR: 70,
  SERVER_ERROR: 80,
  CLIENT_ERROR: 90,
  SERVER_THREADPOOL_EXHAUSTED_ERROR: 100,
} as const;

const NAMES = new Map<number, string>(Object.entries(Status).map(([name, value]) => [value, name]));

/** `SERVICE_ERROR (70)`, or `status 42` for a byte Dubbo does not define. */
export function statusName(status: number): string {
  const name = NAMES.get(status);
  return name === undefined ? `status ${status}` : `${name} (${status})`;
}

/** The one place a Dubbo status byte becomes an error `Code`. */
export function codeFromStatus(status: number): Code {
  switch (status) {
    case Status.SERIALIZATION_ERROR: // a body neither side could (de)serialize: data, not the link
      return Code.Internal;
    case Status.CLIENT_TIMEOUT: // the consumer gave up waiting
    case Status.SERVER_TIMEOUT: // the provider overran the call's timeout
      return Code.DeadlineExceeded;
    case Status.CHANNEL_INACTIVE: // the link is going away (also: a provider shutting down); retry elsewhere
      return Code.Unavailable;
    case Status.BAD_REQUEST: // the provider could not decode the request (or it exceeded `payload`)
      return Code.InvalidArgument;
    case Status.BAD_RESPONSE: // the provider could not encode its answer (or it exceeded `payload`)
      return Code.Internal;
    case Status.SERVICE_NOT_FOUND: // no exporter for the service key: no such method or service is served there
      return Code.Unimplemented;
    case Status.SERVICE_ERROR: // Java reports handler failures (incl. "not found exported service") as 70
      return Code.Unknown;
    case Status.SERVER_ERROR: // the provider failed outside the service (dispatch, executor)
    case Status.CLIENT_ERROR: // the consumer failed to decode the response
      return Code.Internal;
    case Status.SERVER_THREADPOOL_EXHAUSTED_ERROR: // busy provider: retry on another one
      return Code.ResourceExhausted;
    default:
      return Code.Unknown;
  }
}

/** The status a provider answers when its handler fails with an `RpcError` of `code`. */
export function statusFromCode(code: Code): number {
  switch (code) {
    case Code.DeadlineExceeded:
      return Status.SERVER_TIMEOUT;
    case Code.Unavailable:
      return Status.CHANNEL_INACTIVE;
    case Code.InvalidArgument:
      return Status.BAD_REQUEST;
    case Code.Unimplemented:
    case Code.NotFound:
      return Status.SERVICE_NOT_FOUND;
    case Code.ResourceExhausted:
      return Status.SERVER_THREADPOOL_EXHAUSTED_ERROR;
    case Code.Internal:
      return Status.SERVER_ERROR;
    default:
      return Status.SERVICE_ERROR;
  }
}
