// Clock: the one source of "now" for code that schedules or expires things, so tests can move time.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

export function isoTime(ms: number): string {
  return new Date(ms).toISOString()
}
