// A pure function's answers, kept by key: for values a long-running process computes again and again
// (a receiver's URL, its address verdict). Bounded: when full it starts over, which only costs recomputing.

/** `compute`, remembering up to `limit` answers by key. */
export function memoize<K, V>(compute: (key: K) => V, limit = 10_000): (key: K) => V {
  const answers = new Map<K, V>()
  return (key) => {
    if (answers.has(key)) return answers.get(key) as V
    if (answers.size >= limit) answers.clear()
    const value = compute(key)
    answers.set(key, value)
    return value
  }
}
