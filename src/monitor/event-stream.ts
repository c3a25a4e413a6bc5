import type { Logger } from "../core/index.js";
import type { MonitorEventMap, MonitorEventType } from "./events.js";

export type MonitorListener<K extends MonitorEventType> = (event: MonitorEventMap[K]) => void;

type Listeners = { [K in MonitorEventType]: Array<MonitorListener<K>> };

/**
 * One application's event stream. Statistics, metrics and the QoS commands subscribe; emitters
 * check `hasListeners(type)` first, so an event nobody listens to is never even built.
 * A listener that throws is logged and does not disturb the call or the other listeners.
 */
export class MonitorEvents {
  readonly #logger: Logger;
  readonly #listeners: Listeners = {
    callStarted: [],
    callFinished: [],
    registryNotified: [],
    connectionUp: [],
    connectionDown: [],
    threadPoolSaturated: [],
    registryOperated: [],
    threadPoolOpened: [],
    threadPoolClosed: [],
  };

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Subscribes; returns the unsubscribe function. */
  on<K extends MonitorEventType>(type: K, listener: MonitorListener<K>): () => void {
    const list = this.#listeners[type] as Array<MonitorListener<K>>;
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i >= 0) list.splice(i, 1);
    };
  }

  hasListeners(type: MonitorEventType): boolean {
    return this.#listeners[type].length > 0;
  }

  emit<K extends MonitorEventType>(type: K, event: MonitorEventMap[K]): void {
    for (const listener of this.#listeners[type] as Array<MonitorListener<K>>) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.warn(`a ${type} listener of the monitor failed`, error);
      }
    }
  }
}
