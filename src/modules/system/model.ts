// Response schemas of the system endpoints (/health, /ready).
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'

// Elysia's t.Integer also accepts numeric strings (made for query params); responses use the strict one.

export const CronTaskStatus = t.Object({
  last_run_at: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Start of the last run (ISO 8601 UTC), null before the first',
  }),
  last_duration_ms: t.Union([t.Number(), t.Null()]),
  last_error: t.Union([t.String(), t.Null()], {
    description:
      "Message of the last run's error (to a Super Admin; anyone else gets a fixed text saying it is hidden); null when it succeeded",
  }),
  last_failure_at: t.Union([t.String({ format: 'date-time' }), t.Null()], {
    description: 'Start of the most recent failed run, even if later runs succeeded; null if none failed',
  }),
  runs: Type.Integer({ description: 'Runs since the process started' }),
  failures: Type.Integer({ description: 'Failed runs since the process started' }),
  next_run_at: t.String({ format: 'date-time' }),
})

export const HealthBody = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')], { description: "`degraded` when a cron task's last run failed" }),
  version: t.String(),
  uptime_s: Type.Integer(),
  cron: t.Record(t.String(), CronTaskStatus),
})

export const ReadyBody = t.Object({ status: t.Literal('ready') })
