// A resolver that remembers each host name's addresses for a while: a webhook receiver gets many
// deliveries, and asking the system resolver before each one costs a thread-pool round trip, often a
// DNS query. Failures are not remembered (the next call asks again); concurrent calls share one lookup.

export type Resolve = (hostname: string) => Promise<string[]>

/** `resolve`, with answers kept `ttlMs` (by `now`, in milliseconds) and at most `maxNames` names. */
export function cachingResolver(resolve: Resolve, ttlMs: number, now: () => number = Date.now, maxNames = 10_000): Resolve {
  const answers = new Map<string, { addresses: Promise<string[]>; until: number }>()
  return (hostname) => {
    const at = now()
    const known = answers.get(hostname)
    if (known && known.until > at) return known.addresses
    if (answers.size >= maxNames) answers.clear()
    const addresses = resolve(hostname)
    answers.set(hostname, { addresses, until: at + ttlMs })
    addresses.catch(() => {
      if (answers.get(hostname)?.addresses === addresses) answers.delete(hostname)
    })
    return addresses
  }
}
