// Last-seen times of sessions and API keys, written at most once a minute per credential: exact to the
// minute for the lists that show them, without a database write on every request. Each write is one
// statement outside any transaction (it takes the writer lock itself); the request does not wait for it.
import type { Database } from '../../db/database.ts'
import type { Logger } from '../../lib/log.ts'
import type { LastSeen } from '../../ports.ts'
import { touchApiKey, touchSession } from './store.ts'

export class Activity implements LastSeen {
  private readonly written = new Map<string, number>()

  constructor(
    private readonly db: Database,
    private readonly log?: Logger,
    private readonly intervalMs = 60_000,
    private readonly capacity = 50_000,
  ) {}

  session(sessionId: string, now: number): void {
    if (this.due(sessionId, now)) this.settle(touchSession(this.db, sessionId, now), sessionId)
  }

  apiKey(keyId: string, ip: string | null, now: number): void {
    if (this.due(keyId, now)) this.settle(touchApiKey(this.db, keyId, ip, now), keyId)
  }

  private settle(write: Promise<void>, id: string): void {
    // A lost last-seen time is not worth failing anything for; it is tried again a minute later.
    write.catch((error: unknown) => {
      this.written.delete(id)
      this.log?.warn('last-seen time not written', { id, error })
    })
  }

  private due(id: string, now: number): boolean {
    const last = this.written.get(id)
    if (last !== undefined && now - last < this.intervalMs) return false
    if (this.written.size >= this.capacity) this.written.clear()
    this.written.set(id, now)
    return true
  }
}
