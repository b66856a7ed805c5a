// A deadline on another process's answer that counts only the time this process could have read it: a
// timer that fires late (this process was busy, and the answer may be sitting unread in its socket) waits
// a few more turns of the event loop before it blames the other side.

/** How late a timer may fire before its lateness is taken for this process's own. */
const LATE_MS = 20
/** Turns of the event loop granted to a late timer before it gives up after all. */
const EXTRA_TURNS = 3

/** `promise`, or a rejection with `message` once the other side has had `ms` to answer. */
export function answerWithin<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const due = performance.now() + ms
    const expire = (turns: number) => {
      if (settled) return
      // A late timer: let the loop read its sockets (a timer of 1 ms is a full turn, I/O included) and look again.
      if (turns < EXTRA_TURNS && performance.now() - due > LATE_MS) {
        timer = setTimeout(() => expire(turns + 1), 1)
        return
      }
      settled = true
      reject(new Error(message))
    }
    timer = setTimeout(() => expire(0), ms)
    promise.then(
      (value) => {
        settled = true
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        settled = true
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
