const kBizError = Symbol.for("dubbo-ts.BizError");

export interface BizErrorOptions {
  /** The Java exception class, e.g. `java.lang.IllegalArgumentException`. */
  readonly javaClass?: string;
  readonly cause?: unknown;
  /** Java stack frames as `declaringClass.method(file:line)` strings, when the exception came from Java. */
  readonly javaStack?: readonly string[];
  /** Any further fields of the Java exception object (e.g. a custom `errorCode`). */
  readonly fields?: Readonly<Record<string, unknown>>;
}

export const DEFAULT_EXCEPTION_CLASS = "java.lang.RuntimeException";

/**
 * An exception thrown by the provider's own code. It crosses the wire as a Java `Throwable`
 * (class name and message preserved), is never retried by a cluster and never triggers a fail-mock.
 * Throw one from a service implementation to choose the Java class the caller sees.
 */
export class BizError extends Error {
  override name = "BizError";
  readonly javaClass: string;
  readonly javaStack: readonly string[];
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(message: string, options: BizErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.javaClass = options.javaClass ?? DEFAULT_EXCEPTION_CLASS;
    this.javaStack = options.javaStack ?? [];
    this.fields = options.fields ?? {};
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[kBizError] === true
    );
  }

  get [kBizError](): boolean {
    return true;
  }
}
