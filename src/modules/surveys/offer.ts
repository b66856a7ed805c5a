// Offering a survey: by hand (POST /api/v1/surveys, the link shown once), automatically (offerInTx,
// shared with the event subscriber), and a fresh link for an offer still open (the previous one stops
// working). By hand and for a new link, the subject must be one the caller sees by its own module's rule
// (subject.ts), else 404; one survey per subject and type (409).
import type { Ctx, UserActor } from '../../context.ts'
import type { Tx } from '../../db/database.ts'
import { AppError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { findContact } from '../crm/index.ts'
import { newToken, surveyUrl, tokenHash } from './link.ts'
import { assertSurveyTransition } from './lifecycle.ts'
import { findSurveyOfSubject, insertSurvey, lockSurvey, type SubjectFacts, type SurveyResponseRow, saveSurvey } from './store.ts'
import { visibleSubjectFacts } from './subject.ts'
import type { SubjectType, SurveyType } from './table.ts'

export interface NewSurvey {
  survey_type: SurveyType
  subject_type: SubjectType
  subject_id: string
  questions?: string[]
}

export interface OfferInput {
  organizationId: string
  surveyType: SurveyType
  subjectType: SubjectType
  subjectId: string
  facts: SubjectFacts
  questions: string[]
  createdBy: string
  now: number
  expiryMs: number
}

/** Inserts the offer; returns it with its token (the only time the token exists in clear). */
export async function offerInTx(tx: Tx, input: OfferInput): Promise<{ row: SurveyResponseRow; token: string }> {
  const token = newToken()
  // Invariant: no response names a deleted or merged-away contact. The CRM holds the contact found in a
  // transaction until it ends (its key-share lock), so a delete or merge of it commits first (none: it
  // is gone) or after (it then releases or moves this response).
  const { contact_id } = input.facts
  const contact = contact_id === null ? undefined : await findContact(tx, input.organizationId, contact_id)
  const row: SurveyResponseRow = {
    id: prefixedId('srv'),
    organization_id: input.organizationId,
    survey_type: input.surveyType,
    subject_type: input.subjectType,
    subject_id: input.subjectId,
    ...input.facts,
    contact_id: contact?.id ?? null,
    status: 'offered',
    score: null,
    comment: null,
    reason_code: null,
    questions: JSON.stringify(input.questions),
    answers: '[]',
    token_hash: tokenHash(token),
    offered_at: input.now,
    responded_at: null,
    expires_at: input.now + input.expiryMs,
    created_by: input.createdBy,
    created_at: input.now,
    updated_at: input.now,
  }
  await insertSurvey(tx, row)
  return { row, token }
}

export async function createSurvey(ctx: Ctx<UserActor>, input: NewSurvey): Promise<{ row: SurveyResponseRow; url: string }> {
  const { organizationId } = ctx.actor
  const now = ctx.clock.now()
  const questions = (input.questions ?? []).map((q) => q.trim())
  const { row, token } = await ctx.db.write('survey.create', async (tx) => {
    // Offering reads the subject's contact, agent and channel back to the caller: only a subject it may see.
    const facts = await visibleSubjectFacts(tx, ctx.actor, input.subject_type, input.subject_id)
    if (!facts) throw new AppError('NOT_FOUND', `No such ${input.subject_type}`)
    const subject = { type: input.subject_type, id: input.subject_id }
    const other = await findSurveyOfSubject(tx, organizationId, subject, input.survey_type)
    if (other)
      throw new AppError('CONFLICT', `This ${input.subject_type} already has a ${input.survey_type} survey: ${other.id}`, {
        errors: [{ field: 'subject_id', message: `already has ${input.survey_type} survey ${other.id}` }],
      })
    return offerInTx(tx, {
      organizationId,
      surveyType: input.survey_type,
      subjectType: input.subject_type,
      subjectId: input.subject_id,
      facts,
      questions,
      createdBy: ctx.actor.userId,
      now,
      expiryMs: ctx.config.surveyExpiryMs,
    })
  })
  return { row, url: surveyUrl(ctx.config.publicUrl, token) }
}

/**
 * A new token for an offer not yet answered nor expired: the previous link stops working. Only for a
 * survey whose subject the caller sees (404 otherwise, like a missing survey): a new link kills the
 * customer's and lets its holder answer in the customer's place.
 */
export async function renewSurveyLink(ctx: Ctx<UserActor>, id: string): Promise<{ row: SurveyResponseRow; url: string }> {
  const { actor } = ctx
  const { organizationId } = actor
  const now = ctx.clock.now()
  const token = newToken()
  const row = await ctx.db.write('survey.link', async (tx) => {
    // Locked: a new link racing an answer (or another new link) never writes back the row it read.
    const survey = await lockSurvey(tx, { organizationId, id })
    if (!survey || !(await visibleSubjectFacts(tx, actor, survey.subject_type, survey.subject_id)))
      throw new AppError('NOT_FOUND', 'No such survey response')
    if (survey.status !== 'offered') assertSurveyTransition(survey.status, 'offered', ': only an offered survey gets a new link')
    if (Number(survey.expires_at) <= now) assertSurveyTransition('expired', 'offered', ': only an offered survey gets a new link')
    const renewed = { ...survey, token_hash: tokenHash(token), updated_at: now }
    await saveSurvey(tx, renewed)
    return renewed
  })
  return { row, url: surveyUrl(ctx.config.publicUrl, token) }
}
