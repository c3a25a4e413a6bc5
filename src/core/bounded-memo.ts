/**
 * `compute` remembered by key, up to `limit` keys. For values derived from what peers send (class
 * names, descriptors, versions): every call names the same few, which are computed once, and a
 * peer naming ever new ones cannot grow the memo without end; past the bound a key is computed per
 * call.
 */
export function boundedMemo<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size < limit) memo.set(key, value);
    }
    return value;
  };
}
