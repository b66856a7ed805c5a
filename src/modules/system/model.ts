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
  ran_by: t.Union([t.String(), t.Null()], { description: 'The instance (INSTANCE_ID) that ran it last; null before the first run' }),
  scope: t.Union([t.Literal('cluster'), t.Literal('instance')], {
    description: '`cluster`: run once across the instances, by the cron leader; `instance`: run by every instance',
  }),
})

const RedisState = t.Union([t.Literal('ok'), t.Literal('unreachable')], {
  description:
    'Only with REDIS_URL: whether this instance reaches Redis now (see docs/several-instances.md, "When Redis or PostgreSQL is away")',
})

export const HealthBody = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')], {
    description: "`degraded` when a cron task's last run failed, or Redis is unreachable",
  }),
  version: t.String(),
  uptime_s: Type.Integer(),
  instance: t.String({ description: 'This instance (INSTANCE_ID)' }),
  cron_leader: t.Boolean({ description: "Whether this instance runs the cluster's cron tasks (always, for one instance alone)" }),
  redis: t.Optional(RedisState),
  cron: t.Record(t.String(), CronTaskStatus, {
    description: "The cluster's tasks as the instance that ran them last reported them; this instance's own tasks as it ran them",
  }),
})

export const ReadyBody = t.Object({ status: t.Literal('ready'), redis: t.Optional(RedisState) })
