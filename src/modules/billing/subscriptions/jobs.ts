// The billing cron tasks (placeholder until built).
import type { AppContext } from '../../../context.ts'
import type { TaskDefinition } from '../../../jobs/scheduler.ts'

export function billingCronTasks(_app: AppContext): TaskDefinition[] {
  return []
}
