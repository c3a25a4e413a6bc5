/**
 * Polls `predicate` every 50 ms until it holds (a throwing or rejecting predicate counts as "not
 * yet"), failing after `timeoutMs` with a message naming `what` was awaited. Tests wait on real
 * sockets and processes with this instead of sleeping and hoping.
 */
export async function waitFor(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(predicate)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
