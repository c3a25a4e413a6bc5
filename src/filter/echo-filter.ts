import { type Filter, resultOf } from "../core/index.js";

/** The method name of Dubbo's echo probe (`EchoService.$echo`). */
export const ECHO_METHOD = "$echo";

/** Provider side (Java's EchoFilter): `$echo(x)` returns `x` without calling the service. */
export const echoFilter: Filter = (next) => (inv) =>
  inv.method === ECHO_METHOD && inv.args.length === 1 ? Promise.resolve(resultOf(inv.args[0])) : next(inv);
