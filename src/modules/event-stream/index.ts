// The event-stream module's public entry: GET /api/v1/events/stream, the organization's
// events the caller may see as Server-Sent Events with Last-Event-ID resume, live on every instance
// (see README.md); and its EventSubscriber, which signals the streams after each commit.
export { eventStreamSubscriber } from './subscriber.ts'
export { MAX_STREAMS_PER_USER, hubOf } from './hub.ts'
export { memoryStreamSlots, redisStreamSlots } from './slots.ts'

import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { parseTypes } from './filters.ts'
import { STREAM_RESPONSE, StreamQuery } from './model.ts'
import { openEventStream } from './open-stream.ts'

export function eventStreamRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/events' }).use(authMacros(app)).get(
    '/stream',
    async ({ ctx, query, request, server }) => {
      const types = parseTypes(query.types)
      const lastEventId = request.headers.get('last-event-id') ?? query.last_event_id
      const body = await openEventStream(ctx, { lastEventId, types, request })
      // No idle timeout for this connection: the heartbeat may be longer than Bun's (10 s). Bun 1.4 does not
      // cut a response it is still streaming anyway (the binary test idles 12 s); this keeps it so.
      server?.timeout(request, 0)
      return new Response(body, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          // Proxies (nginx) must pass each event on at once.
          'x-accel-buffering': 'no',
        },
      })
    },
    {
      auth: true,
      query: StreamQuery,
      response: protectedErrors('VALIDATION_FAILED', 'LIMIT_REACHED'),
      detail: {
        tags: ['Events'],
        operationId: 'streamEvents',
        summary: 'Stream events live (Server-Sent Events)',
        description:
          "The organization's events the caller may see (each group needs its read permission; an agent sees the tickets, calls and sessions assigned to it or to nobody, and its own agent profile), with the envelope webhooks receive. `Last-Event-ID` (or `last_event_id`) resumes after that event from the event log, then goes live; without it the stream starts with the next event. A `: ping` comment every EVENT_STREAM_HEARTBEAT seconds, when the credential is checked again: revoked, expired or disabled, the stream ends (with a `stream.closed` event); that check is not a use of the credential (an open stream alone does not keep an agent from the idle logout). At most 5 streams per user on all instances together (409 LIMIT_REACHED).",
        responses: STREAM_RESPONSE,
      },
    },
  )
}
