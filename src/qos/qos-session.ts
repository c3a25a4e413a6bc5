import type { QosMethodChoice } from "./qos-site.js";

/** A command's answer; `status` is the HTTP status (probes answer 503 when false). */
export interface QosAnswer {
  readonly text: string;
  readonly status: number;
  /** `quit`: the telnet session ends. */
  readonly close?: boolean;
}

/**
 * What a telnet session remembers between commands (Java keeps it on the channel): the overloads
 * an ambiguous `invoke` listed, for `select`. An HTTP request is a session of its own.
 */
export interface QosSession {
  pendingInvoke?: {
    readonly service: string;
    readonly values: unknown[];
    readonly choices: readonly QosMethodChoice[];
  };
}
