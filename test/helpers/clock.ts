// A clock that only moves when the test moves it.
import type { Clock } from '../../src/lib/clock.ts'

export class FakeClock implements Clock {
  constructor(private time = Date.UTC(2026, 0, 1, 12, 0, 0)) {}
  now(): number {
    return this.time
  }
  advance(ms: number): void {
    this.time += ms
  }
}
