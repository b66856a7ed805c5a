// The surveys' cron task: offers unanswered past expires_at become expired, in batches (no event: the
// catalog has none for it), every ENGAGEMENT_INTERVAL.
import { type AppContext, contextFor } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { expireSurveys, expiringSurveys } from './store.ts'

const BATCH = 500

export function surveyExpiryTask(app: AppContext): TaskDefinition {
  return {
    name: 'survey_expiry',
    intervalMs: app.config.engagements.intervalMs,
    async run({ now }) {
      const ctx = contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
      let expired = 0
      for (;;) {
        // Read outside the transaction; the update re-checks the status, so an answer in between wins.
        const due = await expiringSurveys(ctx.db, now, BATCH)
        if (due.length === 0) break
        const ids = due.map((row) => row.id)
        expired += await ctx.db.write('survey.expire', (tx) => expireSurveys(tx, ids, now))
        if (due.length < BATCH) break
      }
      return { worked: expired > 0, expired }
    },
  }
}
