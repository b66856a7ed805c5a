// Request and response schemas of the activities endpoints (the AgentActivity component).
import { t } from 'elysia'
import { MAX_CUSTOM_ACTIVITIES } from '../activities.ts'
import { ActivityKey } from '../model.ts'

const Time = t.String({ format: 'date-time' })

export const ActivityBody = t.Object(
  {
    key: t.String(),
    name: t.String(),
    available: t.Boolean({ description: 'Fixed when the activity is created' }),
    built_in: t.Boolean(),
    created_at: t.Nullable(Time),
  },
  {
    title: 'AgentActivity',
    examples: [{ key: 'training', name: 'Training', available: false, built_in: false, created_at: '2026-01-10T08:00:00.000Z' }],
  },
)

export const ActivityList = t.Object({ activities: t.Array(ActivityBody) })

export const CreateActivityBody = t.Object(
  {
    key: ActivityKey,
    name: t.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    available: t.Boolean({ description: 'Whether an agent in it may be given work; it never changes' }),
  },
  { description: `Up to ${MAX_CUSTOM_ACTIVITIES} per organization`, examples: [{ key: 'training', name: 'Training', available: false }] },
)

export const ActivityKeyParams = t.Object({ key: t.String({ minLength: 1, maxLength: 64 }) })
