/**
 * Where a layer reports what nobody awaits: dropped connections, retries, swallowed failsafe
 * errors, unreadable registry nodes. The application injects one logger into every layer; the
 * default prints warnings and stays quiet about the rest.
 */
export interface Logger {
  warn(message: string, error?: unknown): void;
  info(message: string): void;
}

export const consoleLogger: Logger = {
  warn(message, error) {
    if (error === undefined) console.warn(`[dubbo-ts] ${message}`);
    else console.warn(`[dubbo-ts] ${message}`, error);
  },
  info() {},
};
