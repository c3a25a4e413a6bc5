/**
 * Polls `check` every `intervalMs` until it holds or `limitMs` passes, and says whether it held (a
 * throwing or rejecting check counts as "not yet"). Tests wait on real sockets and processes with
 * this instead of sleeping and hoping.
 */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  limitMs: number,
  intervalMs = 20,
): Promise<boolean> {
  const attempt = () =>
    Promise.resolve()
      .then(check)
      .catch(() => false);
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await attempt()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return attempt();
}

/** {@link pollUntil} that fails with a message naming `what` was awaited when the time runs out. */
export async function waitFor(
  what: string,
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  if (!(await pollUntil(predicate, timeoutMs, 50))) {
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}
