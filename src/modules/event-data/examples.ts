// The example of every component an event's data refers to, as its module exports it (the very constant
// its model gives that component): the webhook examples of /openapi.json and the test sends are built
// from these alone, so the two cannot differ.
import { AGENT_EXAMPLE, AGENT_SESSION_EXAMPLE } from '../agents/index.ts'
import { INVOICE_EXAMPLE, PAYMENT_EXAMPLE, SUBSCRIPTION_EXAMPLE } from '../billing/index.ts'
import { CALL_EXAMPLE, RECORDING_EXAMPLE } from '../calls/index.ts'
import { ACCOUNT_EXAMPLE, CONTACT_EXAMPLE, LEAD_CONVERSION_EXAMPLE, LEAD_EXAMPLE } from '../crm/index.ts'
import { ENGAGEMENT_EXAMPLE, MESSAGE_EXAMPLE } from '../engagements/index.ts'
import { SURVEY_RESPONSE_EXAMPLE } from '../surveys/index.ts'
import { COMMENT_EXAMPLE, TICKET_EXAMPLE } from '../tickets/index.ts'
import { UPLOAD_EXAMPLE } from '../uploads/index.ts'
import { USER_EXAMPLE } from '../users/index.ts'

/**
 * Component name (its schema's title) -> its example. The document checks, when it is built, that each
 * component's first example is this one (src/http/openapi-webhooks.ts).
 */
export const COMPONENT_EXAMPLES = {
  Account: ACCOUNT_EXAMPLE,
  Agent: AGENT_EXAMPLE,
  AgentSession: AGENT_SESSION_EXAMPLE,
  Call: CALL_EXAMPLE,
  Comment: COMMENT_EXAMPLE,
  Contact: CONTACT_EXAMPLE,
  Engagement: ENGAGEMENT_EXAMPLE,
  Invoice: INVOICE_EXAMPLE,
  Lead: LEAD_EXAMPLE,
  LeadConversion: LEAD_CONVERSION_EXAMPLE,
  Message: MESSAGE_EXAMPLE,
  Payment: PAYMENT_EXAMPLE,
  Recording: RECORDING_EXAMPLE,
  Subscription: SUBSCRIPTION_EXAMPLE,
  SurveyResponse: SURVEY_RESPONSE_EXAMPLE,
  Ticket: TICKET_EXAMPLE,
  Upload: UPLOAD_EXAMPLE,
  User: USER_EXAMPLE,
} satisfies Record<string, object>

export type ComponentName = keyof typeof COMPONENT_EXAMPLES
