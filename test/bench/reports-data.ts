// The reports benchmark's data (reports.ts): one organization's two years of work generated as rows, the
// way the app would have written them, instead of hours of HTTP calls. The source tables (tickets with
// their tags and comments, calls, engagement sessions with their messages, survey responses, agent
// sessions) and the event log (`events`: the envelope {id, type, created_at, organization_id, data} with
// the data src/modules/*/ writes, as docs/events.md lists it, actor_kind 'person', stream_seq 1..N in time
// order). Deterministic (a seeded generator), so both engines get the very same rows; times are whole
// seconds. Written through a RowSink: SQLite in transactions of ~50,000 rows, PostgreSQL as multi-row
// INSERTs (reports.ts).
import { PRIORITIES } from '../../src/modules/tickets/lifecycle.ts'

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
/** The span of the data, ending at `end` (a UTC midnight). */
export const SPAN_DAYS = 730

export interface Scale {
  tickets: number
  calls: number
  sessions: number
  surveys: number
  agents: number
  contacts: number
  /** How many of the agents log in and out and change status (all 50 at 1,000,000 tickets; proportionally fewer below, so the mix of events is the same at any size). */
  shiftAgents: number
}

/** Everything in proportion to the tickets: half as many calls, a fifth as many sessions, a tenth as many surveys. */
export function scaleOf(tickets: number): Scale {
  return {
    tickets,
    calls: Math.round(tickets / 2),
    sessions: Math.round(tickets / 5),
    surveys: Math.round(tickets / 10),
    agents: 50,
    contacts: 1000,
    shiftAgents: Math.max(1, Math.round(50 * Math.min(1, tickets / 1_000_000))),
  }
}

/** What exists before the data: made through the API by reports.ts (users, agent profiles, contacts). */
export interface World {
  orgId: string
  adminId: string
  agents: { id: string; name: string; email: string }[]
  contacts: { id: string; name: string; email: string }[]
  /** The first and last instant of the data (end: a UTC midnight). */
  start: number
  end: number
}

export interface RowSink {
  /** Rows of `table` in `columns` order (booleans as booleans: each sink binds them its engine's way). */
  insert(table: string, columns: readonly string[], rows: unknown[][]): Promise<void>
}

export interface Generated {
  counts: Record<string, number>
  /** Events written, stream_seq 1..events. */
  events: number
}

// A small fast seeded generator (mulberry32) and the distributions drawn from it.
function generator(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
  return {
    next,
    /** Seconds, log-normally spread around `median` (sigma in natural log units), at least `min`. */
    lognormal: (median: number, sigma: number, min = 1) => Math.max(min, Math.round(median * Math.exp(sigma * normal()))),
    /** An index drawn by cumulative `weights`. */
    pick: (cumulative: Float64Array) => {
      const u = next() * cumulative[cumulative.length - 1]!
      let i = 0
      while (cumulative[i]! <= u) i++
      return i
    },
  }
}

const cumulativeOf = (weights: number[]) => {
  const out = new Float64Array(weights.length)
  let sum = 0
  weights.forEach((w, i) => {
    sum += w
    out[i] = sum
  })
  return out
}

const TICKET_CHANNELS = ['email', 'web', 'chat', 'phone', 'api'] as const
const TICKET_CHANNEL_W = cumulativeOf([40, 25, 15, 12, 8])
const PRIORITY_W = cumulativeOf([20, 50, 22, 8])
const TICKET_TYPES = [null, 'question', 'incident', 'problem', 'task'] as const
const TICKET_TYPE_W = cumulativeOf([10, 36, 27, 14, 13])
const TAGS = [
  'billing',
  'refund',
  'shipping',
  'login',
  'bug',
  'feature-request',
  'vip',
  'returns',
  'account',
  'password',
  'invoice',
  'delivery-delay',
  'damaged',
  'cancellation',
  'upgrade',
  'downgrade',
  'mobile-app',
  'website',
  'integration',
  'api',
  'security',
  'gdpr',
  'warranty',
  'exchange',
  'promo-code',
  'gift-card',
  'subscription',
  'onboarding',
  'feedback',
  'complaint',
]
const TAG_W = cumulativeOf(TAGS.map((_, i) => 1 / (i + 2)))
/** Agents are not equally busy: weights 1/(k + 6). */
const agentWeights = (n: number) => cumulativeOf(Array.from({ length: n }, (_, k) => 1 / (k + 6)))

const SUBJECTS = [
  'Order has not arrived yet',
  'Cannot log in to my account',
  'Refund for my last invoice',
  'Package arrived damaged',
  'How do I change my plan?',
  'App crashes when I upload a photo',
  'Wrong item delivered',
  'Please update my billing address',
  'Two-factor code never arrives',
  'Question about my last bill',
  'Cancel my subscription',
  'Promo code is not accepted',
]
const DESCRIPTIONS = [
  'Hello, I placed an order two weeks ago and the tracking page has not changed since. Could you tell me where it is and when it will arrive? Thanks.',
  'Since this morning the sign-in page says my password is wrong, although I reset it twice. I need to get into my account today, please help.',
  'I was charged twice for the same month. Please refund the second charge to the card on file and confirm by e-mail once it is done.',
  'The box was crushed and two of the glasses inside are broken. I attached photos. Can you send replacements or refund these two items?',
]
const COMMENTS = [
  'Thanks for reaching out! I have looked into this and can see what happened. I am fixing it now and will update you shortly.',
  'Sorry for the trouble. I have escalated this to our shipping partner and asked them for an update; you will hear from us within a day.',
  'Internal note: customer is on the annual plan, second contact about this issue this month. Checked the logs, nothing unusual.',
  'All done on our side. Could you check again and let us know if everything works as expected now? We will close this if we do not hear back.',
]
const MESSAGES_IN = ['Hi, I need help with my order please.', 'It still does not work, what should I do now?']
const MESSAGES_OUT = [
  'Hello! Happy to help. Could you give me your order number?',
  'Thanks, I have fixed it. Anything else I can do for you?',
]

const SESSION_CHANNELS = ['chat', 'email', 'sms', 'social', 'voice', 'api'] as const
const SESSION_CHANNEL_W = cumulativeOf([50, 20, 10, 10, 5, 5])
const SESSION_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const
const SESSION_PRIORITY_W = cumulativeOf([10, 75, 12, 3])
const LABELS = [null, 'refund', 'order', 'technical', 'sales'] as const
const LABEL_W = cumulativeOf([50, 15, 15, 12, 8])
const QUEUES = ['support', 'sales', 'billing'] as const
const QUEUE_W = cumulativeOf([60, 25, 15])
/** Call outcomes: completed (answered), canceled, no_answer, busy, failed. */
const OUTCOMES = ['completed', 'canceled', 'no_answer', 'busy', 'failed'] as const
const OUTCOME_W = cumulativeOf([82, 11, 4, 2, 1])
const SURVEY_TYPES = ['csat', 'nps', 'ces'] as const
const SURVEY_TYPE_W = cumulativeOf([70, 20, 10])
const CSAT_W = cumulativeOf([7, 6, 12, 30, 45])
const NPS_W = cumulativeOf([2, 1, 1, 2, 2, 4, 6, 10, 17, 25, 30])
const CES_W = cumulativeOf([3, 5, 10, 17, 25, 25, 15])
const STATUSES = ['offline', 'available', 'busy', 'break', 'wrap_up'] as const

// Ids as the app makes them: a prefix, then 26 Crockford base32 characters that sort by time (48 bits of
// milliseconds), here followed by the record's kind and index instead of randomness, so they are unique.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
function base32(value: number, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 32] + out
    value = Math.floor(value / 32)
  }
  return out
}
const idOf = (prefix: string, at: number, kind: number, index: number) =>
  `${prefix}_${base32(at, 10)}${base32(kind, 4)}${base32(index, 12)}`

const iso = (ms: number) => new Date(ms).toISOString()
const isoOrNull = (ms: number) => (Number.isNaN(ms) ? null : iso(ms))
const nullIfNaN = (ms: number) => (Number.isNaN(ms) ? null : ms)

/**
 * Sorted instants of `n` things over [start, end): denser on weekdays and in working hours (UTC), and
 * growing by half over the span. Whole seconds.
 */
function instants(n: number, start: number, end: number, rng: ReturnType<typeof generator>, hourOfDay: readonly number[]): Float64Array {
  const hours = Math.floor((end - start) / HOUR)
  const cumulative = new Float64Array(hours + 1)
  for (let h = 0; h < hours; h++) {
    const at = new Date(start + h * HOUR)
    const day = at.getUTCDay()
    const weekday = day === 0 ? 0.25 : day === 6 ? 0.35 : 1
    cumulative[h + 1] = cumulative[h]! + weekday * hourOfDay[at.getUTCHours()]! * (1 + (0.5 * h) / hours)
  }
  const total = cumulative[hours]!
  const out = new Float64Array(n)
  let h = 0
  for (let i = 0; i < n; i++) {
    const u = ((i + rng.next()) / n) * total
    while (cumulative[h + 1]! <= u) h++
    const within = (u - cumulative[h]!) / (cumulative[h + 1]! - cumulative[h]!)
    out[i] = start + h * HOUR + Math.floor(within * 3600) * SECOND
  }
  return out
}

// Hour-of-day weights (UTC): tickets come in around the clock, calls mostly in working hours.
const TICKET_HOURS = [0.2, 0.15, 0.15, 0.15, 0.2, 0.3, 0.5, 0.8, 1, 1.1, 1.2, 1.2, 1.1, 1.1, 1.1, 1, 1, 0.9, 0.7, 0.6, 0.5, 0.4, 0.3, 0.25]
const CALL_HOURS = [0.05, 0.03, 0.03, 0.03, 0.05, 0.1, 0.3, 0.7, 1, 1.2, 1.3, 1.2, 1, 1.1, 1.2, 1.1, 1, 0.8, 0.5, 0.3, 0.2, 0.1, 0.08, 0.06]

/** Event kinds, in the order an entity writes them when two share an instant. */
const K = {
  ticketCreated: 0,
  ticketAssigned: 1,
  comment1: 2,
  comment2: 3,
  solve1Updated: 4,
  solve1Resolved: 5,
  reopened: 6,
  solve2Updated: 7,
  solve2Resolved: 8,
  callStarted: 10,
  callAnswered: 11,
  callCompleted: 12,
  sessionCreated: 20,
  message1: 21,
  message2: 22,
  message3: 23,
  message4: 24,
  escalated: 25,
  sessionClosed: 26,
  surveyCompleted: 30,
  agentLoggedIn: 40,
  agentStatus: 41,
  agentLoggedOut: 42,
} as const

const EVENT_TYPES: Record<number, string> = {
  [K.ticketCreated]: 'ticket.created',
  [K.ticketAssigned]: 'ticket.assigned',
  [K.comment1]: 'ticket.comment.added',
  [K.comment2]: 'ticket.comment.added',
  [K.solve1Updated]: 'ticket.updated',
  [K.solve1Resolved]: 'ticket.resolved',
  [K.reopened]: 'ticket.updated',
  [K.solve2Updated]: 'ticket.updated',
  [K.solve2Resolved]: 'ticket.resolved',
  [K.callStarted]: 'call.started',
  [K.callAnswered]: 'call.answered',
  [K.callCompleted]: 'call.completed',
  [K.sessionCreated]: 'engagement.created',
  [K.message1]: 'engagement.message.added',
  [K.message2]: 'engagement.message.added',
  [K.message3]: 'engagement.message.added',
  [K.message4]: 'engagement.message.added',
  [K.escalated]: 'engagement.escalated',
  [K.sessionClosed]: 'engagement.closed',
  [K.surveyCompleted]: 'survey.response.completed',
  [K.agentLoggedIn]: 'agent.logged_in',
  [K.agentStatus]: 'agent.status_changed',
  [K.agentLoggedOut]: 'agent.logged_out',
}

/** The event log before it is sorted: per event, a sort key (second since start, then push order), a kind, an entity. */
class EventIndex {
  static readonly ORDER_BITS = 2 ** 26
  keys: Float64Array
  kinds: Uint8Array
  entities: Uint32Array
  count = 0
  constructor(
    capacity: number,
    private readonly start: number,
    private readonly end: number,
  ) {
    if (capacity >= EventIndex.ORDER_BITS) throw new Error(`too many events for the sort key: ${capacity}`)
    this.keys = new Float64Array(capacity)
    this.kinds = new Uint8Array(capacity)
    this.entities = new Uint32Array(capacity)
  }
  /** An event at `at`, unless it falls after the end of the data. */
  push(at: number, kind: number, entity: number): boolean {
    if (Number.isNaN(at) || at >= this.end) return false
    if (this.count >= this.keys.length) throw new Error('event index full')
    const i = this.count++
    this.keys[i] = ((at - this.start) / SECOND) * EventIndex.ORDER_BITS + i
    this.kinds[i] = kind
    this.entities[i] = entity
    return true
  }
  /** The events in time order (ties in push order): [at, kind, entity]. */
  *sorted(): Generator<[number, number, number]> {
    const keys = this.keys.subarray(0, this.count).sort()
    for (const key of keys) {
      const i = key % EventIndex.ORDER_BITS
      yield [this.start + Math.floor(key / EventIndex.ORDER_BITS) * SECOND, this.kinds[i]!, this.entities[i]!]
    }
  }
}

/** Collects rows per table and hands them to the sink in batches. */
class Batcher {
  private readonly pending = new Map<string, { columns: readonly string[]; rows: unknown[][] }>()
  readonly counts: Record<string, number> = {}
  constructor(
    private readonly sink: RowSink,
    private readonly batch = 5000,
  ) {}
  async add(table: string, columns: readonly string[], row: unknown[]): Promise<void> {
    let entry = this.pending.get(table)
    if (!entry) this.pending.set(table, (entry = { columns, rows: [] }))
    entry.rows.push(row)
    this.counts[table] = (this.counts[table] ?? 0) + 1
    if (entry.rows.length >= this.batch) await this.flush()
  }
  /** Every table's rows, in the order the tables were first written (a ticket before its comments). */
  async flush(): Promise<void> {
    for (const [name, entry] of this.pending) {
      if (entry.rows.length === 0) continue
      const rows = entry.rows
      entry.rows = []
      await this.sink.insert(name, entry.columns, rows)
    }
  }
}

const TICKET_COLUMNS = [
  'id',
  'organization_id',
  'number',
  'subject',
  'description',
  'status',
  'priority',
  'type',
  'channel',
  'requester_name',
  'requester_email',
  'contact_id',
  'assignee_id',
  'tags',
  'custom_fields',
  'upload_ids',
  'created_at',
  'updated_at',
  'solved_at',
  'closed_at',
] as const
const COMMENT_COLUMNS = ['id', 'organization_id', 'ticket_id', 'author_id', 'body', 'public', 'upload_ids', 'created_at'] as const
const TAG_COLUMNS = ['ticket_id', 'organization_id', 'tag'] as const
const CALL_COLUMNS = [
  'id',
  'organization_id',
  'direction',
  'from_number',
  'to_number',
  'contact_id',
  'agent_id',
  'queue',
  'status',
  'provider',
  'provider_call_id',
  'initialized_at',
  'ringing_at',
  'answered_at',
  'ended_at',
  'wait_seconds',
  'talk_seconds',
  'end_reason',
  'ticket_id',
  'created_by',
  'created_at',
  'updated_at',
] as const
const SESSION_COLUMNS = [
  'id',
  'organization_id',
  'contact_id',
  'channel',
  'status',
  'assignee_id',
  'team',
  'required_skill',
  'priority',
  'subject',
  'first_reply_at',
  'waiting_since',
  'last_activity_at',
  'snoozed_until',
  'closed_at',
  'close_reason',
  'labels',
  'custom_fields',
  'ticket_id',
  'call_id',
  'escalated_at',
  'escalation_level',
  'escalated_to',
  'escalation_reason',
  'created_by',
  'created_at',
  'updated_at',
] as const
const MESSAGE_COLUMNS = [
  'id',
  'organization_id',
  'engagement_id',
  'direction',
  'author_type',
  'author_id',
  'body',
  'upload_ids',
  'created_at',
] as const
const SURVEY_COLUMNS = [
  'id',
  'organization_id',
  'survey_type',
  'subject_type',
  'subject_id',
  'contact_id',
  'agent_id',
  'team',
  'channel',
  'status',
  'score',
  'comment',
  'reason_code',
  'questions',
  'answers',
  'token_hash',
  'offered_at',
  'responded_at',
  'expires_at',
  'created_by',
  'created_at',
  'updated_at',
] as const
const AGENT_SESSION_COLUMNS = ['id', 'organization_id', 'agent_id', 'login_at', 'logout_at', 'logout_reason', 'ip', 'user_agent'] as const
export const EVENT_COLUMNS = ['id', 'organization_id', 'type', 'body', 'created_at', 'actor_kind', 'stream_seq'] as const

/** Generates every row and event of `scale` in `world` into `sink`; progress lines go to `progress`. */
export async function generate(world: World, scale: Scale, sink: RowSink, progress: (line: string) => void): Promise<Generated> {
  const rng = generator(20_261_129)
  const { start, end, orgId, adminId } = world
  const out = new Batcher(sink)
  const nAgents = world.agents.length
  const agentW = agentWeights(nAgents)
  const agentIdOf = (a: number) => (a === 0 ? null : world.agents[a - 1]!.id)
  const contactOf = (c: number) => (c === 0xffff ? null : world.contacts[c]!)
  const someContact = () => (rng.next() < 0.85 ? Math.floor(rng.next() * world.contacts.length) : 0xffff)
  const agentUser = (a: number) => world.agents[a - 1]!
  const events = new EventIndex(
    Math.ceil(scale.tickets * 9.2 + scale.calls * 3 + scale.sessions * 7 + scale.surveys + nAgents * SPAN_DAYS * 40) + 1000,
    start,
    end,
  )

  // Tickets: created, assigned (most), a first public comment by a person, a second (public or an
  // internal note), solved; some reopened and solved again. Whatever falls after `end` has not happened.
  const n = scale.tickets
  const tCreated = instants(n, start, end, rng, TICKET_HOURS)
  const tC1 = new Float64Array(n)
  const tC2 = new Float64Array(n)
  const tS1 = new Float64Array(n)
  const tReopen = new Float64Array(n).fill(Number.NaN)
  const tS2 = new Float64Array(n).fill(Number.NaN)
  const tPriority = new Uint8Array(n)
  const tChannel = new Uint8Array(n)
  const tType = new Uint8Array(n)
  const tAssignee = new Uint8Array(n)
  const tAuthor = new Uint8Array(n)
  const tTags = new Uint32Array(n)
  const tContact = new Uint16Array(n)
  const tC2Public = new Uint8Array(n)
  const tText = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const priority = rng.pick(PRIORITY_W)
    tPriority[i] = priority
    tChannel[i] = rng.pick(TICKET_CHANNEL_W)
    tType[i] = rng.pick(TICKET_TYPE_W)
    const assignee = rng.next() < 0.92 ? rng.pick(agentW) + 1 : 0
    tAssignee[i] = assignee
    tAuthor[i] = assignee || rng.pick(agentW) + 1
    const tagCount = rng.pick(cumulativeOf([25, 40, 25, 10]))
    let mask = 0
    for (let k = 0; k < tagCount; k++) mask |= 1 << rng.pick(TAG_W)
    tTags[i] = mask
    tContact[i] = someContact()
    tText[i] = Math.floor(rng.next() * 255)
    // Urgent tickets are answered and solved sooner.
    const speed = [1.6, 1, 0.6, 0.3][priority]!
    tC1[i] = tCreated[i]! + rng.lognormal(5400 * speed, 1.3, 20) * SECOND
    tC2[i] = tC1[i]! + rng.lognormal(3 * 3600, 1.2, 30) * SECOND
    tC2Public[i] = rng.next() < 0.6 ? 1 : 0
    tS1[i] = tC2[i]! + rng.lognormal(8 * 3600 * speed, 1.3, 60) * SECOND
    if (rng.next() < 0.12) {
      tReopen[i] = tS1[i]! + rng.lognormal(26 * 3600, 1, 600) * SECOND
      tS2[i] = tReopen[i]! + rng.lognormal(4 * 3600, 1.2, 60) * SECOND
    }
  }
  const ticketId = (i: number) => idOf('tkt', tCreated[i]!, 1, i)
  const commentId = (i: number, which: number) => idOf('tcm', which === 1 ? tC1[i]! : tC2[i]!, 1 + which, i)
  const tagsOf = (i: number) => TAGS.filter((_, k) => (tTags[i]! >> k) & 1)
  const ticketState = (i: number, at: number) => {
    // The status at `at`, the last solve (if solved) and the last change.
    const initial = tAssignee[i] ? 'open' : 'new'
    if (at >= tS2[i]!) return { status: 'solved', solvedAt: tS2[i]!, updatedAt: tS2[i]! }
    if (at >= tReopen[i]!) return { status: 'open', solvedAt: Number.NaN, updatedAt: tReopen[i]! }
    if (at >= tS1[i]!) return { status: 'solved', solvedAt: tS1[i]!, updatedAt: tS1[i]! }
    const updatedAt = at >= tC2[i]! ? tC2[i]! : at >= tC1[i]! ? tC1[i]! : tCreated[i]!
    return { status: initial, solvedAt: Number.NaN, updatedAt }
  }
  const ticketJson = (i: number, at: number) => {
    const state = ticketState(i, at)
    const contact = contactOf(tContact[i]!)
    return {
      id: ticketId(i),
      number: i + 1,
      subject: SUBJECTS[tText[i]! % SUBJECTS.length],
      description: DESCRIPTIONS[tText[i]! % DESCRIPTIONS.length],
      status: state.status,
      priority: PRIORITIES[tPriority[i]!],
      type: TICKET_TYPES[tType[i]!],
      channel: TICKET_CHANNELS[tChannel[i]!],
      requester: contact ? { name: contact.name, email: contact.email } : null,
      contact_id: contact?.id ?? null,
      assignee_id: agentIdOf(tAssignee[i]!),
      tags: tagsOf(i),
      custom_fields: {},
      upload_ids: [],
      created_at: iso(tCreated[i]!),
      updated_at: iso(state.updatedAt),
      solved_at: isoOrNull(state.solvedAt),
      closed_at: null,
    }
  }
  const commentJson = (i: number, which: number) => ({
    id: commentId(i, which),
    ticket_id: ticketId(i),
    author_id: agentUser(tAuthor[i]!).id,
    body: COMMENTS[(tText[i]! + which) % COMMENTS.length],
    public: which === 1 || tC2Public[i] === 1,
    upload_ids: [],
    created_at: iso(which === 1 ? tC1[i]! : tC2[i]!),
  })
  for (let i = 0; i < n; i++) {
    const created = tCreated[i]!
    const state = ticketState(i, end - 1)
    const contact = contactOf(tContact[i]!)
    await out.add('tickets', TICKET_COLUMNS, [
      ticketId(i),
      orgId,
      i + 1,
      SUBJECTS[tText[i]! % SUBJECTS.length],
      DESCRIPTIONS[tText[i]! % DESCRIPTIONS.length],
      state.status,
      tPriority[i],
      TICKET_TYPES[tType[i]!],
      TICKET_CHANNELS[tChannel[i]!],
      contact?.name ?? null,
      contact?.email ?? null,
      contact?.id ?? null,
      agentIdOf(tAssignee[i]!),
      JSON.stringify(tagsOf(i)),
      '{}',
      '[]',
      created,
      state.updatedAt,
      nullIfNaN(state.solvedAt),
      null,
    ])
    for (const tag of tagsOf(i)) await out.add('ticket_tags', TAG_COLUMNS, [ticketId(i), orgId, tag])
    for (const which of [1, 2]) {
      const at = which === 1 ? tC1[i]! : tC2[i]!
      if (at >= end) continue
      const c = commentJson(i, which)
      await out.add('ticket_comments', COMMENT_COLUMNS, [c.id, orgId, c.ticket_id, c.author_id, c.body, c.public, '[]', at])
    }
    events.push(created, K.ticketCreated, i)
    if (tAssignee[i]) events.push(created, K.ticketAssigned, i)
    events.push(tC1[i]!, K.comment1, i)
    events.push(tC2[i]!, K.comment2, i)
    events.push(tS1[i]!, K.solve1Updated, i)
    events.push(tS1[i]!, K.solve1Resolved, i)
    events.push(tReopen[i]!, K.reopened, i)
    events.push(tS2[i]!, K.solve2Updated, i)
    events.push(tS2[i]!, K.solve2Resolved, i)
    if (i % 100_000 === 99_999) progress(`tickets ${i + 1}`)
  }
  await out.flush()

  // Calls: started (queued), answered (most), completed; abandoned ones end canceled or unanswered.
  const nc = scale.calls
  const cInit = instants(nc, start, end, rng, CALL_HOURS)
  const cAnswered = new Float64Array(nc).fill(Number.NaN)
  const cEnded = new Float64Array(nc)
  const cOutcome = new Uint8Array(nc)
  const cInbound = new Uint8Array(nc)
  const cQueue = new Uint8Array(nc)
  const cAgent = new Uint8Array(nc)
  const cContact = new Uint16Array(nc)
  for (let j = 0; j < nc; j++) {
    const outcome = rng.pick(OUTCOME_W)
    cOutcome[j] = outcome
    cInbound[j] = rng.next() < 0.85 ? 1 : 0
    cQueue[j] = cInbound[j] ? rng.pick(QUEUE_W) + 1 : 0
    cContact[j] = someContact()
    if (outcome === 0) {
      cAnswered[j] = cInit[j]! + rng.lognormal(18, 0.9, 2) * SECOND
      cEnded[j] = cAnswered[j]! + rng.lognormal(240, 0.8, 5) * SECOND
      cAgent[j] = rng.pick(agentW) + 1
    } else cEnded[j] = cInit[j]! + rng.lognormal(outcome === 4 ? 3 : 55, 0.8, 1) * SECOND
  }
  const callId = (j: number) => idOf('cal', cInit[j]!, 10, j)
  const phone = (k: number) => `+1415555${String(k % 10_000).padStart(4, '0')}`
  const callJson = (j: number, at: number) => {
    const answered = cAnswered[j]! <= at ? cAnswered[j]! : Number.NaN
    const ended = cEnded[j]! <= at ? cEnded[j]! : Number.NaN
    const init = cInit[j]!
    const status = !Number.isNaN(ended) ? OUTCOMES[cOutcome[j]!] : !Number.isNaN(answered) ? 'in_progress' : 'queued'
    const wait = !Number.isNaN(answered)
      ? Math.round((answered - init) / SECOND)
      : !Number.isNaN(ended)
        ? Math.round((ended - init) / SECOND)
        : null
    const talk = Number.isNaN(ended) ? null : Number.isNaN(answered) ? 0 : Math.round((ended - answered) / SECOND)
    const contact = contactOf(cContact[j]!)
    const ours = '+14155550199'
    return {
      id: callId(j),
      direction: cInbound[j] ? 'inbound' : 'outbound',
      from: cInbound[j] ? phone(j) : ours,
      to: cInbound[j] ? ours : phone(j),
      contact_id: contact?.id ?? null,
      agent_id: Number.isNaN(answered) && cInbound[j] ? null : agentIdOf(cAgent[j]!),
      queue: cQueue[j] ? QUEUES[cQueue[j]! - 1]! : null,
      status,
      provider: 'twilio',
      provider_call_id: `CA${String(j).padStart(32, '0')}`,
      initialized_at: iso(init),
      ringing_at: status === 'queued' ? null : iso(init + 2 * SECOND),
      answered_at: isoOrNull(answered),
      ended_at: isoOrNull(ended),
      wait_seconds: wait,
      talk_seconds: talk,
      end_reason: Number.isNaN(ended) ? null : OUTCOMES[cOutcome[j]!],
      ticket_id: null,
      created_at: iso(init),
      updated_at: iso(!Number.isNaN(ended) ? ended : !Number.isNaN(answered) ? answered : init),
    }
  }
  for (let j = 0; j < nc; j++) {
    const c = callJson(j, end - 1)
    const ms = (text: string | null) => (text === null ? null : Date.parse(text))
    await out.add('calls', CALL_COLUMNS, [
      c.id,
      orgId,
      c.direction,
      c.from,
      c.to,
      c.contact_id,
      c.agent_id,
      c.queue,
      c.status,
      c.provider,
      c.provider_call_id,
      cInit[j],
      ms(c.ringing_at),
      ms(c.answered_at),
      ms(c.ended_at),
      c.wait_seconds,
      c.talk_seconds,
      c.end_reason,
      null,
      adminId,
      cInit[j],
      ms(c.updated_at),
    ])
    events.push(cInit[j]!, K.callStarted, j)
    events.push(cAnswered[j]!, K.callAnswered, j)
    events.push(cEnded[j]!, K.callCompleted, j)
  }
  await out.flush()
  progress(`calls ${nc}`)

  // Engagement sessions: created by the customer's message, an agent's first reply, another exchange,
  // sometimes an escalation, closed by the agent.
  const ns = scale.sessions
  const sCreated = instants(ns, start, end, rng, TICKET_HOURS)
  const sReply = new Float64Array(ns)
  const sIn2 = new Float64Array(ns)
  const sOut2 = new Float64Array(ns)
  const sEscalated = new Float64Array(ns).fill(Number.NaN)
  const sClosed = new Float64Array(ns)
  const sChannel = new Uint8Array(ns)
  const sPriority = new Uint8Array(ns)
  const sAssignee = new Uint8Array(ns)
  const sAssignedAtCreation = new Uint8Array(ns)
  const sContact = new Uint16Array(ns)
  const sLabel = new Uint8Array(ns)
  for (let s = 0; s < ns; s++) {
    sChannel[s] = rng.pick(SESSION_CHANNEL_W)
    sPriority[s] = rng.pick(SESSION_PRIORITY_W)
    sAssignee[s] = rng.pick(agentW) + 1
    sAssignedAtCreation[s] = rng.next() < 0.9 ? 1 : 0
    sContact[s] = Math.floor(rng.next() * world.contacts.length)
    sLabel[s] = rng.pick(LABEL_W)
    const slow = sChannel[s] === 1 ? 20 : 1
    sReply[s] = sCreated[s]! + rng.lognormal(90 * slow, 1, 5) * SECOND
    sIn2[s] = sReply[s]! + rng.lognormal(120 * slow, 0.9, 5) * SECOND
    sOut2[s] = sIn2[s]! + rng.lognormal(60 * slow, 0.9, 5) * SECOND
    if (rng.next() < 0.06) sEscalated[s] = sOut2[s]! + rng.lognormal(120, 0.7, 5) * SECOND
    sClosed[s] = (Number.isNaN(sEscalated[s]!) ? sOut2[s]! : sEscalated[s]!) + rng.lognormal(300 * slow, 1, 10) * SECOND
  }
  const sessionId = (s: number) => idOf('eng', sCreated[s]!, 20, s)
  const messageId = (s: number, k: number) => idOf('msg', [sCreated, sReply, sIn2, sOut2][k - 1]![s]!, 20 + k, s)
  const sessionJson = (s: number, at: number) => {
    const escalated = sEscalated[s]! <= at ? sEscalated[s]! : Number.NaN
    const closed = sClosed[s]! <= at ? sClosed[s]! : Number.NaN
    const replied = sReply[s]! <= at ? sReply[s]! : Number.NaN
    const assigned = sAssignedAtCreation[s] === 1 || !Number.isNaN(replied)
    const times = [sCreated[s]!, sReply[s]!, sIn2[s]!, sOut2[s]!, sEscalated[s]!, sClosed[s]!].filter((t) => t <= at)
    const last = Math.max(...times)
    // Waiting for an agent after the customer's messages, not after a reply.
    const waiting = sIn2[s]! <= at && sOut2[s]! > at ? sIn2[s]! : Number.isNaN(replied) ? sCreated[s]! : Number.NaN
    const label = LABELS[sLabel[s]!]
    return {
      id: sessionId(s),
      contact_id: world.contacts[sContact[s]!]!.id,
      channel: SESSION_CHANNELS[sChannel[s]!],
      status: !Number.isNaN(closed) ? 'closed' : assigned ? 'active' : 'queued',
      assignee_id: assigned ? agentIdOf(sAssignee[s]!) : null,
      team: 'support',
      required_skill: null,
      priority: SESSION_PRIORITIES[sPriority[s]!],
      subject: null,
      first_reply_at: isoOrNull(replied),
      waiting_since: Number.isNaN(closed) ? isoOrNull(waiting) : null,
      last_activity_at: iso(last),
      snoozed_until: null,
      closed_at: isoOrNull(closed),
      close_reason: Number.isNaN(closed) ? null : 'agent',
      labels: label ? [label] : [],
      custom_fields: {},
      ticket_id: null,
      call_id: null,
      escalated_at: isoOrNull(escalated),
      escalation_level: Number.isNaN(escalated) ? null : 1,
      escalated_to: Number.isNaN(escalated) ? null : { team: 'tier-2' },
      escalation_reason: Number.isNaN(escalated) ? null : 'Needs a specialist',
      created_by: adminId,
      created_at: iso(sCreated[s]!),
      updated_at: iso(last),
    }
  }
  const messageJson = (s: number, k: number) => {
    const inbound = k % 2 === 1
    return {
      id: messageId(s, k),
      engagement_id: sessionId(s),
      direction: inbound ? 'in' : 'out',
      author: { type: inbound ? 'contact' : 'agent', id: inbound ? world.contacts[sContact[s]!]!.id : agentUser(sAssignee[s]!).id },
      body: inbound ? MESSAGES_IN[(k - 1) / 2]! : MESSAGES_OUT[k / 2 - 1]!,
      upload_ids: [],
      created_at: iso([sCreated, sReply, sIn2, sOut2][k - 1]![s]!),
    }
  }
  for (let s = 0; s < ns; s++) {
    const e = sessionJson(s, end - 1)
    const ms = (text: string | null) => (text === null ? null : Date.parse(text))
    await out.add('engagements', SESSION_COLUMNS, [
      e.id,
      orgId,
      e.contact_id,
      e.channel,
      e.status,
      e.assignee_id,
      e.team,
      null,
      e.priority,
      null,
      ms(e.first_reply_at),
      ms(e.waiting_since),
      ms(e.last_activity_at),
      null,
      ms(e.closed_at),
      e.close_reason,
      JSON.stringify(e.labels),
      '{}',
      null,
      null,
      ms(e.escalated_at),
      e.escalation_level,
      e.escalated_to === null ? null : JSON.stringify(e.escalated_to),
      e.escalation_reason,
      adminId,
      sCreated[s],
      ms(e.updated_at),
    ])
    for (let k = 1; k <= 4; k++) {
      const at = [sCreated, sReply, sIn2, sOut2][k - 1]![s]!
      if (at >= end) continue
      const m = messageJson(s, k)
      await out.add('engagement_messages', MESSAGE_COLUMNS, [
        m.id,
        orgId,
        m.engagement_id,
        m.direction,
        m.author.type,
        m.author.id,
        m.body,
        '[]',
        at,
      ])
    }
    events.push(sCreated[s]!, K.sessionCreated, s)
    events.push(sCreated[s]!, K.message1, s)
    events.push(sReply[s]!, K.message2, s)
    events.push(sIn2[s]!, K.message3, s)
    events.push(sOut2[s]!, K.message4, s)
    events.push(sEscalated[s]!, K.escalated, s)
    events.push(sClosed[s]!, K.sessionClosed, s)
  }
  await out.flush()
  progress(`sessions ${ns}`)

  // Survey responses: offered when a ticket is solved (4 in 5) or a session closed, one per subject;
  // 60 % answered within hours, the others expire after 7 days.
  const nv = scale.surveys
  const vSubjectTicket = new Uint8Array(nv)
  const vSubject = new Uint32Array(nv)
  const vType = new Uint8Array(nv)
  const vOffered = new Float64Array(nv)
  const vResponded = new Float64Array(nv).fill(Number.NaN)
  const vScore = new Int8Array(nv)
  let surveys = 0
  const ticketSurveys = Math.round(nv * 0.8)
  for (let k = 0; k < nv; k++) {
    const onTicket = k < ticketSurveys
    const subject = onTicket ? (k * 12 + 3) % n : ((k - ticketSurveys) * 10 + 1) % ns
    const offered = (onTicket ? tS1[subject]! : sClosed[subject]!) + MINUTE
    if (offered >= end - HOUR) continue
    const v = surveys++
    vSubjectTicket[v] = onTicket ? 1 : 0
    vSubject[v] = subject
    vOffered[v] = offered
    const type = rng.pick(SURVEY_TYPE_W)
    vType[v] = type
    if (rng.next() < 0.6) {
      vResponded[v] = offered + rng.lognormal(2 * 3600, 1.3, 30) * SECOND
      vScore[v] = type === 0 ? rng.pick(CSAT_W) + 1 : type === 1 ? rng.pick(NPS_W) : rng.pick(CES_W) + 1
    }
  }
  const surveyId = (v: number) => idOf('srv', vOffered[v]!, 30, v)
  const surveyJson = (v: number, at: number) => {
    const onTicket = vSubjectTicket[v] === 1
    const subject = vSubject[v]!
    const responded = vResponded[v]! <= at ? vResponded[v]! : Number.NaN
    const expires = vOffered[v]! + 7 * DAY
    const contact = onTicket ? contactOf(tContact[subject]!) : world.contacts[sContact[subject]!]!
    return {
      id: surveyId(v),
      survey_type: SURVEY_TYPES[vType[v]!],
      subject_type: onTicket ? 'ticket' : 'engagement',
      subject_id: onTicket ? ticketId(subject) : sessionId(subject),
      contact_id: contact?.id ?? null,
      agent_id: onTicket ? agentIdOf(tAssignee[subject]!) : agentIdOf(sAssignee[subject]!),
      team: null,
      channel: onTicket ? TICKET_CHANNELS[tChannel[subject]!] : SESSION_CHANNELS[sChannel[subject]!],
      status: !Number.isNaN(responded) ? 'responded' : expires <= at ? 'expired' : 'offered',
      score: Number.isNaN(responded) ? null : vScore[v]!,
      comment: null,
      reason_code: null,
      questions: [],
      answers: [],
      offered_at: iso(vOffered[v]!),
      responded_at: isoOrNull(responded),
      expires_at: iso(expires),
      editable_until: Number.isNaN(responded) ? null : iso(responded + DAY),
      created_at: iso(vOffered[v]!),
      updated_at: iso(Number.isNaN(responded) ? vOffered[v]! : responded),
    }
  }
  for (let v = 0; v < surveys; v++) {
    const r = surveyJson(v, end - 1)
    await out.add('survey_responses', SURVEY_COLUMNS, [
      r.id,
      orgId,
      r.survey_type,
      r.subject_type,
      r.subject_id,
      r.contact_id,
      r.agent_id,
      null,
      r.channel,
      r.status,
      r.score,
      null,
      null,
      '[]',
      '[]',
      `bench${String(v).padStart(59, '0')}`,
      vOffered[v],
      r.responded_at === null ? null : Date.parse(r.responded_at),
      Date.parse(r.expires_at),
      adminId,
      vOffered[v],
      Date.parse(r.updated_at),
    ])
    events.push(vResponded[v]!, K.surveyCompleted, v)
  }
  await out.flush()
  progress(`surveys ${surveys}`)

  // Agents: shifts on most weekdays (some weekends; below 1,000,000 tickets only scale.shiftAgents of
  // them work shifts), in three shift groups; inside a shift, available, busy, wrap-up and breaks, each status change an event;
  // logged in and out around it.
  const aAgent: number[] = []
  const aFrom: number[] = []
  const aTo: number[] = []
  const aSession: number[] = []
  const shifts: { agent: number; login: number; logout: number }[] = []
  for (let a = 1; a <= Math.min(nAgents, scale.shiftAgents); a++) {
    const shiftStart = [6, 9, 14][a % 3]! * HOUR
    for (let day = start; day < end; day += DAY) {
      const weekday = new Date(day).getUTCDay()
      const works = weekday === 0 || weekday === 6 ? rng.next() < 0.15 : rng.next() < 0.92
      if (!works) continue
      const login = day + shiftStart + rng.lognormal(600, 0.8, 0) * SECOND
      const logout = login + (8 * 3600 + Math.round((rng.next() - 0.5) * 3600)) * SECOND
      if (logout >= end) continue
      const session = shifts.length
      shifts.push({ agent: a, login, logout })
      const change = (at: number, from: number, to: number, kind: number) => {
        aAgent.push(a)
        aFrom.push(from)
        aTo.push(to)
        aSession.push(session)
        events.push(at, kind, aAgent.length - 1)
      }
      change(login, 0, 0, K.agentLoggedIn)
      change(login, 0, 1, K.agentStatus)
      let status = 1
      let breaks = 0
      for (let t = login; ; ) {
        const dwell = [0, 1200, 1800, 900, 300][status]!
        t += rng.lognormal(dwell, 0.7, 30) * SECOND
        if (t >= logout - 5 * MINUTE) break
        let next: number
        if (status === 1) {
          const u = rng.next()
          next = u < 0.1 && breaks < 2 ? 3 : u < 0.8 ? 2 : 4
        } else if (status === 2) next = rng.next() < 0.6 ? 1 : 4
        else next = 1
        if (next === 3) breaks++
        change(t, status, next, K.agentStatus)
        status = next
      }
      change(logout, status, 0, K.agentLoggedOut)
      change(logout, status, 0, K.agentStatus)
    }
  }
  const sessionIdOf = (k: number) => idOf('ags', shifts[k]!.login, 40, k)
  const ip = (a: number) => `203.0.113.${a}`
  for (let k = 0; k < shifts.length; k++) {
    const shift = shifts[k]!
    await out.add('agent_sessions', AGENT_SESSION_COLUMNS, [
      sessionIdOf(k),
      orgId,
      agentUser(shift.agent).id,
      shift.login,
      shift.logout,
      'logout',
      ip(shift.agent),
      'Softphone/2.1',
    ])
  }
  await out.flush()
  progress(`agent shifts ${shifts.length}`)
  const agentJson = (e: number, at: number) => {
    const user = agentUser(aAgent[e]!)
    const status = STATUSES[aTo[e]!]!
    const loggedIn = status !== 'offline'
    return {
      id: user.id,
      user: { id: user.id, name: user.name, email: user.email, role: 'agent' },
      status,
      available: status === 'available',
      status_reason: status === 'offline' ? 'logout' : aFrom[e] === 0 ? 'login' : 'set',
      status_changed_at: iso(at),
      session_id: loggedIn ? sessionIdOf(aSession[e]!) : null,
      max_concurrent: 5,
      current_load: status === 'busy' ? 1 : 0,
      auto_offline: true,
      skills: [],
      teams: ['tier-1'],
      last_seen_at: iso(at),
      created_at: iso(start - DAY),
      updated_at: iso(at),
    }
  }
  const agentSessionJson = (k: number, loggedOut: boolean) => {
    const shift = shifts[k]!
    return {
      id: sessionIdOf(k),
      agent_id: agentUser(shift.agent).id,
      login_at: iso(shift.login),
      logout_at: loggedOut ? iso(shift.logout) : null,
      duration_seconds: loggedOut ? Math.round((shift.logout - shift.login) / SECOND) : null,
      logout_reason: loggedOut ? 'logout' : null,
      ip: ip(shift.agent),
      user_agent: 'Softphone/2.1',
    }
  }

  // The event log in time order: stream_seq 1..N.
  const dataOf = (kind: number, e: number, at: number): Record<string, unknown> => {
    switch (kind) {
      case K.ticketCreated:
        return { ticket: ticketJson(e, at), uploads: [] }
      case K.ticketAssigned:
        return { ticket: ticketJson(e, at), previous_assignee_id: null }
      case K.comment1:
      case K.comment2:
        return { ticket: ticketJson(e, at), comment: commentJson(e, kind === K.comment1 ? 1 : 2), uploads: [] }
      case K.solve1Updated:
      case K.reopened:
      case K.solve2Updated:
        return { ticket: ticketJson(e, at), changed: ['status'] }
      case K.solve1Resolved:
      case K.solve2Resolved:
        return { ticket: ticketJson(e, at) }
      case K.callStarted:
      case K.callAnswered:
        return { call: callJson(e, at) }
      case K.callCompleted:
        return { call: callJson(e, at), status: OUTCOMES[cOutcome[e]!], reason: OUTCOMES[cOutcome[e]!] }
      case K.sessionCreated:
      case K.sessionClosed:
        return { engagement: sessionJson(e, at) }
      case K.message1:
      case K.message2:
      case K.message3:
      case K.message4:
        return { engagement: sessionJson(e, at), message: messageJson(e, kind - K.sessionCreated) }
      case K.escalated:
        return { engagement: sessionJson(e, at), escalation: { level: 1, to: { team: 'tier-2' }, reason: 'Needs a specialist' } }
      case K.surveyCompleted:
        return { response: surveyJson(e, at) }
      case K.agentLoggedIn:
        return { agent: { ...agentJson(e, at), status: 'offline', available: false }, session: agentSessionJson(aSession[e]!, false) }
      case K.agentLoggedOut:
        return { agent: agentJson(e, at), reason: 'logout', session: agentSessionJson(aSession[e]!, true) }
      case K.agentStatus:
        return {
          agent: agentJson(e, at),
          from: STATUSES[aFrom[e]!],
          to: STATUSES[aTo[e]!],
          reason: aFrom[e] === 0 ? 'login' : aTo[e] === 0 ? 'logout' : 'set',
        }
      default:
        throw new Error(`unknown event kind ${kind}`)
    }
  }
  progress(`sorting ${events.count} events`)
  let seq = 0
  for (const [at, kind, e] of events.sorted()) {
    seq += 1
    const type = EVENT_TYPES[kind]!
    const id = idOf('evt', at, kind, seq)
    const body = `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(iso(at))},"organization_id":${JSON.stringify(orgId)},"data":${JSON.stringify(dataOf(kind, e, at))}}`
    await out.add('events', EVENT_COLUMNS, [id, orgId, type, body, at, 'person', seq])
    if (seq % 1_000_000 === 0) progress(`events ${seq}`)
  }
  await out.flush()
  return { counts: out.counts, events: seq }
}
