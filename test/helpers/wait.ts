// Waiting in tests for something another process or timer brings about: poll, and fail naming what did
// not happen in time.

/** Until `condition` holds; polls every `stepMs`, fails after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 10_000, stepMs = 5): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); await Bun.sleep(stepMs))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
}

/** The first value `check` returns other than undefined; polls every `stepMs`, fails after `ms`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000, stepMs = 50): Promise<T> {
  for (const deadline = Date.now() + ms; ; await Bun.sleep(stepMs)) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
  }
}
