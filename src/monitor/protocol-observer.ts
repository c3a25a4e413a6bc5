import type { ProtocolObserver } from "../protocol/shared/index.js";
import type { MonitorEvents } from "./event-stream.js";

/** The dubbo protocol's observer that feeds the monitor stream, building events only for listeners. */
export function monitorObserver(events: MonitorEvents): ProtocolObserver {
  return {
    connection(peer, role, up) {
      const type = up ? "connectionUp" : "connectionDown";
      if (events.hasListeners(type)) events.emit(type, { peer, role });
    },
    poolExhausted(server, active, queued) {
      if (events.hasListeners("threadPoolSaturated")) {
        events.emit("threadPoolSaturated", { server, active, queued });
      }
    },
    threadPool(server, pool, open) {
      const type = open ? "threadPoolOpened" : "threadPoolClosed";
      if (events.hasListeners(type)) events.emit(type, { server, pool });
    },
  };
}
