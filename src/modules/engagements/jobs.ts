// The engagements module's cron tasks, every ENGAGEMENT_INTERVAL, in batches (one short transaction
// each): engagement_snooze_wake (snoozed sessions whose snoozed_until has come become active) and
// engagement_auto_close (active sessions without activity for ENGAGEMENT_AUTO_CLOSE_MINUTES close with
// close_reason auto_inactive and engagement.closed).
import { type AppContext, contextFor, type Ctx } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { moveInTx } from './move-engagement.ts'
import { type EngagementRow, inactiveSince, lockEngagement, snoozedDue } from './store.ts'

const BATCH = 200

/** Each row of the batch re-read in the transaction: a message or an agent may have moved it since. */
async function runBatches(
  ctx: Ctx,
  signal: AbortSignal,
  name: string,
  read: () => Promise<EngagementRow[]>,
  apply: (row: EngagementRow) => Parameters<typeof moveInTx>[3] | undefined,
): Promise<number> {
  let moved = 0
  for (let more = true; more && !signal.aborted; ) {
    const batch = await read()
    more = batch.length === BATCH
    const done = await ctx.db.write(name, async (tx) => {
      let n = 0
      for (const candidate of batch) {
        // Locked: a message, an agent or the other instance's cron run may move it meanwhile; one move wins.
        const row = await lockEngagement(tx, candidate.organization_id, candidate.id)
        const step = row && apply(row)
        if (!row || !step) continue
        await moveInTx(tx, ctx, row, step)
        n++
      }
      return n
    })
    moved += done
    // Rows that changed meanwhile are skipped, and would be read again: stop rather than loop on them.
    if (done < batch.length) break
  }
  return moved
}

export function engagementTasks(app: AppContext): TaskDefinition[] {
  const intervalMs = app.config.engagements.intervalMs
  const cron = (now: number) => contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
  return [
    {
      name: 'engagement_snooze_wake',
      intervalMs,
      async run({ now, signal }) {
        const woken = await runBatches(
          cron(now),
          signal,
          'engagement.snooze_wake',
          () => snoozedDue(app.db, now, BATCH),
          (row) =>
            row.status === 'snoozed' && row.snoozed_until !== null && Number(row.snoozed_until) <= now
              ? { to: 'active', move: 'unsnooze', now, what: 'woken' }
              : undefined,
        )
        return { worked: woken > 0, woken }
      },
    },
    {
      name: 'engagement_auto_close',
      intervalMs,
      async run({ now, signal }) {
        const before = now - app.config.engagements.autoCloseMs
        const closed = await runBatches(
          cron(now),
          signal,
          'engagement.auto_close',
          () => inactiveSince(app.db, before, BATCH),
          (row) =>
            row.status === 'active' && Number(row.last_activity_at) <= before
              ? { to: 'closed', move: 'close', now, what: 'closed', closeReason: 'auto_inactive' }
              : undefined,
        )
        return { worked: closed > 0, closed }
      },
    },
  ]
}
