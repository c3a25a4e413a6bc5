/** The method name of Dubbo's echo probe (`EchoService.$echo`), answered by the provider's echo filter. */
export const ECHO_METHOD = "$echo";

/** The generic-call methods (`GenericService.$invoke` / `$invokeAsync`), answered by the generic filter. */
const GENERIC_METHODS: ReadonlySet<string> = new Set(["$invoke", "$invokeAsync"]);

/**
 * Whether a method belongs to the framework rather than to a service's contract: a provider decodes
 * its arguments by the types the request spells, and a filter answers it.
 */
export function isFrameworkMethod(method: string): boolean {
  return method === ECHO_METHOD || GENERIC_METHODS.has(method);
}
