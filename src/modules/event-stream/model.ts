// The event stream's query and its OpenAPI answer (Server-Sent Events, not JSON).
import { t } from 'elysia'

export const StreamQuery = t.Object({
  types: t.Optional(
    t.String({
      maxLength: 8000,
      description: 'Comma-separated event types to receive: catalog names, `*`, or a prefix such as `ticket.*` (default: every type)',
      examples: ['ticket.*,engagement.created'],
    }),
  ),
  last_event_id: t.Optional(
    t.String({
      maxLength: 20,
      description:
        'Resume after this event (the `id:` of the last one received), for clients that cannot send the `Last-Event-ID` header; the header wins when both are given',
    }),
  ),
})

export const STREAM_RESPONSE = {
  200: {
    description:
      'Server-Sent Events: `id: <stream order>`, `event: <type>`, `data: <the envelope a webhook receives>`; a `: ping` comment every EVENT_STREAM_HEARTBEAT seconds',
    content: {
      'text/event-stream': {
        schema: { type: 'string' as const },
        example:
          'retry: 2000\n: connected\n\nid: 42\nevent: ticket.created\ndata: {"id":"evt_…","type":"ticket.created","created_at":"2026-01-01T00:00:00.000Z","organization_id":"org_…","data":{"ticket":{…}}}\n\n: ping\n\n',
      },
    },
  },
}
