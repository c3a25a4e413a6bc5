/**
 * Where two reads of one path's children differ, as one splice: `after` is `before` with
 * `before[start, beforeEnd)` replaced by `after[start, afterEnd)`. ZooKeeper lists children in its
 * hash set's order, which one add or remove leaves as it was around the change, so the common
 * head and tail are found by comparing in place (no hashing of 10 000 long names) and the middle
 * is what changed, or everything after a rehash.
 */
export interface ChildrenSplice {
  readonly start: number;
  readonly beforeEnd: number;
  readonly afterEnd: number;
}

export function childrenSplice(before: readonly string[], after: readonly string[]): ChildrenSplice {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start++;
  let beforeEnd = before.length;
  let afterEnd = after.length;
  while (beforeEnd > start && afterEnd > start && before[beforeEnd - 1] === after[afterEnd - 1]) {
    beforeEnd--;
    afterEnd--;
  }
  return { start, beforeEnd, afterEnd };
}

/** Whether the splice only reorders names (children are distinct, as ZooKeeper's are). */
export function onlyReorders(
  before: readonly string[],
  after: readonly string[],
  splice: ChildrenSplice,
): boolean {
  const { start, beforeEnd, afterEnd } = splice;
  if (beforeEnd - start !== afterEnd - start) return false;
  if (beforeEnd === start) return true;
  const removed = new Set(before.slice(start, beforeEnd));
  for (let i = start; i < afterEnd; i++) if (!removed.has(after[i]!)) return false;
  return true;
}
