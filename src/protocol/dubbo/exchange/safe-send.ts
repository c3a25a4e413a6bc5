import type { Channel, Logger } from "../../../transport/index.js";

/**
 * Sends an answer from inside a socket callback (a reply, a heartbeat response, a readonly event).
 * Such a send must never throw back into the transport: a link that closed in the meantime only
 * means nobody is left to answer, and any other failure is reported, not raised.
 */
export function safeSend(ch: Channel, logger: Logger, send: () => void): void {
  if (!ch.isConnected) return;
  try {
    send();
  } catch (error) {
    logger.warn(`could not answer ${ch.remoteAddress}: ${(error as Error).message}`);
  }
}
