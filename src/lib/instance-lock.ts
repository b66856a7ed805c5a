// An exclusive lock on a file for the lifetime of the process, so that two servers never share one
// DATA_DIR. It is an SQLite database held in EXCLUSIVE locking mode after a write: the lock is the
// operating system's file lock, released by the kernel when the process ends however it ends (a
// SIGKILL or a crash leaves no stale lock behind), and it needs no FFI.
import { Database } from 'bun:sqlite'

export interface InstanceLock {
  /** Releases the lock (the process ending releases it too). */
  release(): void
}

/** Takes the lock at `path`, or returns undefined when another process holds it. Other errors are thrown. */
export function acquireInstanceLock(path: string): InstanceLock | undefined {
  const db = new Database(path, { create: true, readwrite: true })
  try {
    // Never wait: a held lock is an answer, not something to queue for.
    db.run('PRAGMA busy_timeout = 0')
    // The journal in memory: the lock file stays one file.
    db.run('PRAGMA journal_mode = MEMORY')
    db.run('PRAGMA locking_mode = EXCLUSIVE')
    // The first write takes the exclusive lock; in EXCLUSIVE mode it is kept until the connection closes.
    db.run('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since INTEGER NOT NULL)')
    db.transaction(() => {
      db.run('DELETE FROM holder')
      db.run('INSERT INTO holder (pid, since) VALUES (?, ?)', [process.pid, Date.now()])
    }).exclusive()
  } catch (error) {
    db.close()
    if (isBusy(error)) return undefined
    throw error
  }
  let held = true
  return {
    release() {
      if (!held) return
      held = false
      db.close()
    },
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || /database is locked/i.test((error as Error).message ?? '')
}
