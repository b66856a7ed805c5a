// Last-seen times of sessions and API keys, written at most once a minute per credential: exact to the
// minute for the lists that show them, without a database write on every request.
import type { Database } from 'bun:sqlite'

export class Activity {
  private readonly written = new Map<string, number>()

  constructor(
    private readonly sqlite: Database,
    private readonly intervalMs = 60_000,
    private readonly capacity = 50_000,
  ) {}

  session(sessionId: string, now: number): void {
    if (this.due(sessionId, now)) this.sqlite.query('UPDATE sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?').run(now, sessionId, now)
  }

  apiKey(keyId: string, ip: string | null, now: number): void {
    if (this.due(keyId, now)) this.sqlite.query('UPDATE api_keys SET last_used_at = ?, last_used_ip = ? WHERE id = ?').run(now, ip, keyId)
  }

  private due(id: string, now: number): boolean {
    const last = this.written.get(id)
    if (last !== undefined && now - last < this.intervalMs) return false
    if (this.written.size >= this.capacity) this.written.clear()
    this.written.set(id, now)
    return true
  }
}
