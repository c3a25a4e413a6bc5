/** "Did you mean" for unknown setting names: the closest known name within a small edit distance. */
export function closestName(wanted: string, known: readonly string[]): string | undefined {
  const target = squash(wanted);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const candidate = squash(name);
    // `timeout_ms`, `TimeoutMs` and `timeout-ms` all mean `timeoutMs`.
    if (candidate === target) return name;
    const distance = editDistance(target, candidate);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  const allowed = Math.max(2, Math.floor(target.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
