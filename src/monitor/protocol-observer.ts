import type { DubboObserver } from "../protocol/dubbo/index.js";
import type { MonitorEvents } from "./event-stream.js";

/** The dubbo protocol's observer that feeds the monitor stream, building events only for listeners. */
export function monitorObserver(events: MonitorEvents): DubboObserver {
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
  };
}
