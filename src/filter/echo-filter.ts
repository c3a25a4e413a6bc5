import { ECHO_METHOD, type Filter, resultOf } from "../core/index.js";

/** Provider side (Java's EchoFilter): `$echo(x)` returns `x` without calling the service. */
export const echoFilter: Filter = (next) => (inv) =>
  inv.method === ECHO_METHOD && inv.args.length === 1 ? Promise.resolve(resultOf(inv.args[0])) : next(inv);
