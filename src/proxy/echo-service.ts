/** Dubbo's `EchoService`: every reference answers `$echo(x)` with `x` when the provider is reachable. */
export interface EchoService {
  $echo<T>(value: T): Promise<T>;
}
