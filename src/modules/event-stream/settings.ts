// The event-stream module's settings (assembled by src/config.ts): the keep-alive and the database poll of open streams.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  EVENT_STREAM_HEARTBEAT: Type.Integer({
    minimum: 1,
    maximum: 300,
    default: 15,
    description: 'Seconds between the keep-alive comments of `GET /api/v1/events/stream` when no event comes (1–300).',
  }),
  EVENT_STREAM_POLL: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 3,
    description:
      "Seconds between the database checks of open event streams for events they were not signalled about: another instance's, when its signal through Redis was lost (1–3600).",
  }),
} satisfies Record<string, TSchema>

export interface EventStreamSlice {
  readonly eventStreamHeartbeatMs: number
  readonly eventStreamPollMs: number
}

export function eventStreamSlice(values: SettingValues): EventStreamSlice {
  return {
    eventStreamHeartbeatMs: (values.EVENT_STREAM_HEARTBEAT as number) * 1000,
    eventStreamPollMs: (values.EVENT_STREAM_POLL as number) * 1000,
  }
}
