// Cron task: closes tickets solved more than TICKET_AUTO_CLOSE_DAYS ago, in batches, each with its
// ticket.updated event.
import type { AppDatabase } from '../../db/open.ts'
import { closeSolvedTickets } from '../../modules/tickets/update-ticket.ts'
import type { TaskDefinition } from '../scheduler.ts'

const BATCH = 500

export function ticketAutoCloseTask(deps: { db: AppDatabase; config: { ticketAutoCloseDays: number } }, intervalMs = 10 * 60 * 1000): TaskDefinition {
  return {
    name: 'ticket_auto_close',
    intervalMs,
    run({ now, signal }) {
      const solvedBefore = now - deps.config.ticketAutoCloseDays * 86_400_000
      let closed = 0
      // Short transactions: a batch at a time, until none is due or the loop is stopping.
      for (let batch = BATCH; batch === BATCH && !signal.aborted; ) {
        batch = closeSolvedTickets(deps.db, solvedBefore, now, BATCH)
        closed += batch
      }
      return { worked: closed > 0, closed }
    },
  }
}
