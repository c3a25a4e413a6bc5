/**
 * What the transport and exchange layers report that nobody awaits: dropped connections,
 * rejected peers, reconnects. The application injects its own; the default prints warnings only.
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
