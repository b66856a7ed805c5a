// TRANSITIONAL (issue 13): the auth cleanup task now lives in its module (auth/jobs.ts); this keeps the
// registry's import working until it registers the module's task with the AppContext.
import type { AppContext } from '../../context.ts'
import { AUTH_CLEANUP_INTERVAL_MS, authCleanupTask as moduleTask } from '../../modules/auth/index.ts'
import type { TaskDefinition } from '../scheduler.ts'

/** @deprecated TRANSITIONAL (issue 13): use authCleanupTask(app) from src/modules/auth/index.ts. */
export function authCleanupTask(deps: AppContext | { app: AppContext }, intervalMs = AUTH_CLEANUP_INTERVAL_MS): TaskDefinition {
  return moduleTask('app' in deps ? deps.app : deps, intervalMs)
}
