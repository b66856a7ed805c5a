// Request and response schemas of the tickets endpoints.
import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { oneOf } from '../../http/schema.ts'
import { COMMENT_LIST } from './store.ts'
import { CHANNELS, INITIAL_STATUSES, PRIORITIES, STATUSES, TYPES } from './lifecycle.ts'
import { TICKET_SORTS } from './list-tickets.ts'

const Subject = t.String({ minLength: 1, maxLength: 200, pattern: '\\S' })
const Description = t.String({ maxLength: 65_535 })
const Requester = t.Object({
  name: t.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
  email: t.String({ format: 'email', maxLength: 254 }),
})
const ContactId = t.String({
  minLength: 1,
  maxLength: 64,
  description: 'A contact of the organization; null for none; when left out, the requester’s contact (found by e-mail, or created)',
})
const Tags = t.Array(
  t.String({ minLength: 1, maxLength: 50, pattern: '^[^\\s,]+$', description: 'No spaces or commas; stored lowercased' }),
  { maxItems: 20 },
)
/** Uploads to attach (POST /api/v1/uploads first); listed by id on the ticket or comment. */
export const MAX_UPLOADS = 20
const UploadIds = t.Array(t.String({ minLength: 1, maxLength: 64 }), {
  maxItems: MAX_UPLOADS,
  description: `Up to ${MAX_UPLOADS} pending attachment uploads of the organization (POST /api/v1/uploads), each attached once; another organization's is 404, an attached or expired one 409`,
})
// additionalProperties: false, or keys outside the pattern (and their values) would go unchecked.
const CustomFields = t.Record(
  t.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }),
  t.Union([t.String({ maxLength: 1000 }), t.Number(), t.Boolean()]),
  {
    additionalProperties: false,
    maxProperties: 50,
    description: 'Up to 50 scalar values (string, number, boolean), 8 KiB in all',
  },
)

// One example ticket for the document (the Ticket component, webhook examples and test sends); every value is valid.
export const TICKET_EXAMPLE = {
  id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  number: 1042,
  subject: 'Printer on the 3rd floor is out of toner',
  description: 'It prints blank pages since this morning.',
  status: 'open',
  priority: 'high',
  type: 'incident',
  channel: 'email',
  requester: { name: 'Grace Customer', email: 'grace@example.com' },
  contact_id: 'con_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  assignee_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  tags: ['hardware'],
  custom_fields: { floor: 3 },
  upload_ids: ['upl_01KAX3M6W9P8T2V5G7H4J3C1QZ'],
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T09:42:00.000Z',
  solved_at: null,
  closed_at: null,
}

export const TicketBody = t.Object(
  {
    id: t.String({ examples: ['tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    number: Type.Integer({ description: 'Shown to people; a sequence per organization' }),
    subject: t.String(),
    description: t.String(),
    status: oneOf(STATUSES),
    priority: oneOf(PRIORITIES),
    type: t.Nullable(oneOf(TYPES)),
    channel: oneOf(CHANNELS),
    requester: t.Nullable(t.Object({ name: t.String(), email: t.String() })),
    contact_id: t.Nullable(t.String({ description: 'The CRM contact the ticket is about' })),
    assignee_id: t.Nullable(t.String()),
    tags: t.Array(t.String()),
    custom_fields: t.Record(t.String(), t.Union([t.String(), t.Number(), t.Boolean()])),
    upload_ids: t.Array(t.String(), { description: 'The uploads attached when it was created (GET /api/v1/uploads/{id} for each)' }),
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
    solved_at: t.Nullable(t.String({ format: 'date-time' })),
    closed_at: t.Nullable(t.String({ format: 'date-time' })),
  },
  { title: 'Ticket', examples: [TICKET_EXAMPLE] },
)

export const CreateTicketBody = t.Object(
  {
    subject: Subject,
    description: t.Optional(Description),
    status: t.Optional(oneOf(INITIAL_STATUSES, { description: 'Default new' })),
    priority: t.Optional(oneOf(PRIORITIES, { description: 'Default normal' })),
    type: t.Optional(t.Nullable(oneOf(TYPES))),
    channel: t.Optional(oneOf(CHANNELS, { description: 'Default api' })),
    requester: t.Optional(t.Nullable(Requester)),
    contact_id: t.Optional(t.Nullable(ContactId)),
    assignee_id: t.Optional(t.Nullable(t.String({ maxLength: 64, description: 'Needs ticket:assign' }))),
    tags: t.Optional(Tags),
    custom_fields: t.Optional(CustomFields),
    upload_ids: t.Optional(UploadIds),
  },
  {
    examples: [
      {
        subject: 'Printer on the 3rd floor is out of toner',
        description: 'It prints blank pages since this morning.',
        priority: 'high',
        type: 'incident',
        channel: 'email',
        requester: { name: 'Grace Customer', email: 'grace@example.com' },
        tags: ['hardware'],
        custom_fields: { floor: 3 },
      },
    ],
  },
)

export const UpdateTicketBody = t.Object(
  {
    subject: t.Optional(Subject),
    description: t.Optional(Description),
    status: t.Optional(oneOf(STATUSES)),
    priority: t.Optional(oneOf(PRIORITIES)),
    type: t.Optional(t.Nullable(oneOf(TYPES))),
    channel: t.Optional(oneOf(CHANNELS)),
    requester: t.Optional(t.Nullable(Requester)),
    contact_id: t.Optional(t.Nullable(ContactId)),
    tags: t.Optional(Tags),
    custom_fields: t.Optional(CustomFields),
  },
  { minProperties: 1, examples: [{ status: 'pending', priority: 'urgent' }] },
)

export const AssignBody = t.Object(
  { assignee_id: t.Nullable(t.String({ maxLength: 64, description: 'A user of the organization, or null to unassign' })) },
  { examples: [{ assignee_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ' }] },
)

export const CommentBody = t.Object(
  {
    body: t.String({ minLength: 1, maxLength: 65_535, pattern: '\\S' }),
    public: t.Optional(t.Boolean({ description: 'Default true' })),
    upload_ids: t.Optional(UploadIds),
  },
  { examples: [{ body: 'A new cartridge is on its way.', public: true, upload_ids: ['upl_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }] },
)

// The Comment component's example (also in ticket.comment.added's webhook example and test send).
export const COMMENT_EXAMPLE = {
  id: 'cmt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  ticket_id: 'tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  author_id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  body: 'A new cartridge is on its way.',
  public: true,
  upload_ids: [],
  created_at: '2026-01-15T09:45:00.000Z',
}

export const CommentJson = t.Object(
  {
    id: t.String(),
    ticket_id: t.String(),
    author_id: t.String(),
    body: t.String(),
    public: t.Boolean(),
    upload_ids: t.Array(t.String(), { description: 'The uploads attached to the comment' }),
    created_at: t.String({ format: 'date-time' }),
  },
  { title: 'Comment', examples: [COMMENT_EXAMPLE] },
)

export const TicketIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const TicketListQuery = t.Object({
  status: t.Optional(oneOf(STATUSES)),
  priority: t.Optional(oneOf(PRIORITIES)),
  assignee_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A user id, or "none" for unassigned tickets' })),
  contact_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'Only the tickets of this contact' })),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
  created_after: t.Optional(t.String({ format: 'date-time', description: 'ISO 8601; only tickets created after it' })),
  created_before: t.Optional(t.String({ format: 'date-time', description: 'ISO 8601; only tickets created before it' })),
  ...pagingQuery(TICKET_SORTS),
})

export const CommentListQuery = t.Object({ ...pagingQuery(COMMENT_LIST.sorts) })

export const ContactTicketsQuery = t.Object({ ...pagingQuery(TICKET_SORTS) })

export const TicketList = listResponse('tickets', TicketBody)
export const CommentList = listResponse('comments', CommentJson)
