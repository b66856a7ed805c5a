// The SQLite engine's change mark (Database.changeMark): a number that moves whenever the file may have
// changed since it was last read, so that a per-process cache of small, hot reads stays exact. It moves
// at once on every write of this process (each write path calls wrote()), and on a commit of another
// process (a command-line tool on the same file) from this process's next event-loop turn: the read
// connection is asked for its PRAGMA data_version once per turn, not once per request (that costs about
// what the reads it saves cost).
export class SqliteChangeMark {
  private epoch = 0
  private lastVersion = -1
  private checkedThisTurn = false

  /** Reads the data_version of the read connection (a PRAGMA), which moves on another connection's commit. */
  constructor(private readonly dataVersion: () => number) {}

  /** The current mark; equal marks mean nothing was committed in between. */
  current(): number {
    if (!this.checkedThisTurn) {
      this.checkedThisTurn = true
      setImmediate(() => {
        this.checkedThisTurn = false
      })
      const version = this.dataVersion()
      if (version !== this.lastVersion) {
        this.lastVersion = version
        this.epoch++
      }
    }
    return this.epoch
  }

  /** Called by every write path of this process (it may not move data_version: one connection in memory). */
  wrote(): void {
    this.epoch++
  }
}
