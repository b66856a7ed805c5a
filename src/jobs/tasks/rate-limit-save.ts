// TRANSITIONAL (issue 13): the rate-limit save task now lives in its module (rate-limits/jobs.ts); this
// keeps the registry's import working until it registers the module's task with the AppContext.
import type { AppContext } from '../../context.ts'
import { RATE_LIMIT_SAVE_INTERVAL_MS, rateLimitSaveTask as moduleTask } from '../../modules/rate-limits/index.ts'
import type { TaskDefinition } from '../scheduler.ts'

export { RATE_LIMIT_SAVE_INTERVAL_MS }

/** @deprecated TRANSITIONAL (issue 13): use rateLimitSaveTask(app) from src/modules/rate-limits/index.ts. */
export function rateLimitSaveTask(deps: AppContext | { app: AppContext }, intervalMs = RATE_LIMIT_SAVE_INTERVAL_MS): TaskDefinition {
  return moduleTask('app' in deps ? deps.app : deps, intervalMs)
}
