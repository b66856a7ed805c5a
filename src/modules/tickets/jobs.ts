// The tickets module's cron task: closes tickets solved more than TICKET_AUTO_CLOSE_DAYS ago, in
// batches (one short transaction each), each ticket with its ticket.updated event.
import { type AppContext, contextFor } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { closeSolvedTickets } from './update-ticket.ts'

const BATCH = 500

export function ticketAutoCloseTask(app: AppContext, intervalMs = 10 * 60 * 1000): TaskDefinition {
  return {
    name: 'ticket_auto_close',
    intervalMs,
    async run({ now, signal }) {
      // The run's one reading of the clock is the time every ticket closes at.
      const ctx = contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
      const solvedBefore = now - app.config.ticketAutoCloseDays * 86_400_000
      let closed = 0
      for (let batch = BATCH; batch === BATCH && !signal.aborted; ) {
        batch = await closeSolvedTickets(ctx, { solvedBefore, limit: BATCH })
        closed += batch
      }
      return { worked: closed > 0, closed }
    },
  }
}
