// The agents module's cron task: the idle logout, on an interval derived from AGENT_IDLE_TIMEOUT so a
// short setting works on the real clock.
import { type AppContext, contextFor } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { idleCheckIntervalMs, logOutIdleAgents } from './idle.ts'

export function agentIdleLogoutTask(app: AppContext): TaskDefinition {
  return {
    name: 'agent_idle_logout',
    intervalMs: idleCheckIntervalMs(app.config),
    async run({ now }) {
      // The run's one reading of the clock is the time every idle agent is logged out at.
      const ctx = contextFor({ ...app, clock: { now: () => now } }, { kind: 'system', id: 'cron' })
      const { loggedOut, seen } = await logOutIdleAgents(ctx)
      return { worked: loggedOut > 0, logged_out: loggedOut, last_seen_updated: seen }
    },
  }
}
