// The respondent's side, through the public link (no login): reading the survey by its token and
// recording the answer (survey.response.completed), which may be changed within 24 h of the first
// answer (survey.response.updated), and not after (409). An expired offer — marked by the cron loop, or
// past expires_at already — is 409 too; an unknown token is 404, like a tampered one.
import { type Ctx, contextFor, type SystemActor } from '../../../context.ts'
import type { AppContext } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { isoTime } from '../../../lib/clock.ts'
import { recordChange } from '../../events/index.ts'
import { tokenHash } from '../link.ts'
import { assertSurveyTransition } from '../lifecycle.ts'
import { editableUntil, responseJson } from '../response-json.ts'
import { findSurveyByToken, lockSurvey, type SurveyResponseRow, saveSurvey } from '../store.ts'
import { SCALES } from '../table.ts'

export const MAX_COMMENT = 2000

// The respondent is nobody we know: the audit records the link. (SystemActor's ids do not name it yet.)
const RESPONDENT: SystemActor = { kind: 'system', id: 'survey_link' }

export function respondentContext(app: AppContext): Ctx<SystemActor> {
  return contextFor(app, RESPONDENT)
}

export interface Answer {
  score: number
  comment?: string | null
  reason_code?: string | null
  answers?: string[]
}

const notFound = () => new AppError('NOT_FOUND', 'No such survey')

/** The survey of a link, or 404 (unknown, tampered or malformed alike). */
export async function surveyOfToken(ctx: Ctx, token: string): Promise<SurveyResponseRow> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw notFound()
  const row = await findSurveyByToken(ctx.db, tokenHash(token))
  if (!row) throw notFound()
  return row
}

/** What the respondent sees: the scale, the questions, and the answer so far. */
export function publicSurveyJson(row: SurveyResponseRow, now: number) {
  const until = editableUntil(row)
  const expired = row.status === 'offered' && Number(row.expires_at) <= now
  return {
    survey_type: row.survey_type,
    scale: SCALES[row.survey_type],
    questions: JSON.parse(row.questions) as string[],
    status: expired ? ('expired' as const) : row.status,
    score: row.score === null ? null : Number(row.score),
    comment: row.comment,
    editable_until: until === null ? null : isoTime(until),
  }
}

function checkAnswer(row: SurveyResponseRow, answer: Answer): void {
  const { min, max } = SCALES[row.survey_type]
  if (!Number.isInteger(answer.score) || answer.score < min || answer.score > max)
    throw validationError([{ field: 'score', message: `must be a whole number from ${min} to ${max} (${row.survey_type})` }])
  if ((answer.comment ?? '').length > MAX_COMMENT)
    throw validationError([{ field: 'comment', message: `must be at most ${MAX_COMMENT} characters` }])
  const questions = JSON.parse(row.questions) as string[]
  if ((answer.answers ?? []).length > questions.length)
    throw validationError([{ field: 'answers', message: `must have at most one answer per question (${questions.length})` }])
}

export async function answerSurvey(ctx: Ctx, token: string, answer: Answer): Promise<SurveyResponseRow> {
  const now = ctx.clock.now()
  const hash = tokenHash(token)
  await surveyOfToken(ctx, token)
  return ctx.db.write('survey.answer', async (tx) => {
    // Locked: of answers at once, the first completes the survey and the others then change it (lockSurvey).
    const row = await lockSurvey(tx, { tokenHash: hash })
    if (!row) throw notFound()
    const status = row.status === 'offered' && Number(row.expires_at) <= now ? 'expired' : row.status
    if (status === 'expired') assertSurveyTransition('expired', 'responded', ': the survey expired, answers are no longer taken')
    const until = editableUntil(row)
    if (until !== null && now >= until)
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A responded survey cannot become responded again: its answer can be changed only within 24 hours, until ${isoTime(until)}`,
      )
    checkAnswer(row, answer)
    const comment = answer.comment?.trim() || null
    const next: SurveyResponseRow = {
      ...row,
      status: 'responded',
      score: answer.score,
      comment,
      reason_code: answer.reason_code?.trim() || null,
      answers: JSON.stringify(answer.answers ?? JSON.parse(row.answers)),
      responded_at: row.responded_at ?? now,
      updated_at: now,
    }
    await saveSurvey(tx, next)
    await recordChange(tx, ctx, {
      type: row.status === 'responded' ? 'survey.response.updated' : 'survey.response.completed',
      organizationId: row.organization_id,
      target: { type: 'survey_response', id: row.id },
      data: { response: responseJson(next) },
      now,
    })
    return next
  })
}
