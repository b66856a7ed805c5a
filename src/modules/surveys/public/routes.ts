// The public survey link, no login: GET /s/{token} shows the form (HTML for a browser, JSON otherwise)
// and POST /s/{token} records the answer (a url-encoded form, as the HTML form posts, or JSON). Counted
// per address by the anonymous rate limit, like every public route.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { AppError, validationError } from '../../../errors.ts'
import { formParameters } from '../../../http/body.ts'
import { errorResponses } from '../../../http/problem.ts'
import { isoTime } from '../../../lib/clock.ts'
import { type Answer, answerSurvey, publicSurveyJson, respondentContext, surveyOfToken } from './answer.ts'
import { PUBLIC_SURVEY_PATH } from '../link.ts'
import { PublicAnswerBody, PublicSurveyBody } from '../model.ts'
import { closedPage, formPage, pageHeaders, thanksPage } from './page.ts'
import { editableUntil } from '../response-json.ts'

const wantsHtml = (request: Request) => (request.headers.get('accept') ?? '').includes('text/html')

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: pageHeaders() })
}

// The JSON answer as a Response too, so a handler has one return type (the schema still documents it).
function json(value: unknown): Response {
  return new Response(JSON.stringify(value), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })
}

/** The answer of a form: every field a string (answers repeated); of JSON: as sent, checked as a whole. */
function answerOf(request: Request, body: unknown): Answer {
  const form = formParameters(request)
  if (form) {
    const score = form.get('score')
    if (score === null || !/^\d{1,2}$/.test(score)) throw validationError([{ field: 'score', message: 'choose a score' }])
    return {
      score: Number(score),
      comment: form.get('comment'),
      reason_code: form.get('reason_code'),
      answers: form.has('answers') ? form.getAll('answers') : undefined,
    }
  }
  const value = body as Answer | null
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw validationError([{ field: 'score', message: 'is required' }])
  const problems: { field: string; message: string }[] = []
  if (typeof value.score !== 'number' || !Number.isInteger(value.score)) problems.push({ field: 'score', message: 'must be an integer' })
  for (const field of ['comment', 'reason_code'] as const)
    if (value[field] !== undefined && value[field] !== null && typeof value[field] !== 'string')
      problems.push({ field, message: 'must be a string' })
  if (value.reason_code && value.reason_code.length > 100)
    problems.push({ field: 'reason_code', message: 'must be at most 100 characters' })
  if (value.answers !== undefined && (!Array.isArray(value.answers) || value.answers.some((a) => typeof a !== 'string' || a.length > 2000)))
    problems.push({ field: 'answers', message: 'must be a list of strings of at most 2000 characters' })
  if (problems.length > 0) throw validationError(problems)
  return value
}

/** A refusal as a page: the message, with the form again (as filled in) when the answer itself was wrong. */
async function htmlRefusal(app: AppContext, request: Request, token: string, error: unknown): Promise<Response> {
  if (!(error instanceof AppError)) throw error
  if (error.status === 404) return html(closedPage('Survey not found', 'This link is not valid.'), 404)
  if (error.code === 'VALIDATION_FAILED') {
    const row = await surveyOfToken(respondentContext(app), token)
    const detail = error.errors?.map((e) => `${e.field}: ${e.message}`).join('; ') ?? error.message
    const form = formParameters(request)
    const view = {
      surveyType: row.survey_type,
      questions: JSON.parse(row.questions) as string[],
      score: null,
      comment: form?.get('comment') ?? null,
      answers: form?.getAll('answers') ?? [],
    }
    return html(formPage({ ...view, error: `Please check your answer (${detail}).` }), 400)
  }
  if (error.status === 409) return html(closedPage('This survey is closed', error.message), 409)
  throw error
}

// The answer's schema as plain JSON Schema for the document (a form sends the same fields as strings).
const ANSWER_SCHEMA = JSON.parse(JSON.stringify(PublicAnswerBody)) as Record<string, unknown>

// The same fields as the HTML form posts them: text, answers repeated once per question.
const FORM_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: ['score'],
  properties: {
    score: { type: 'string', pattern: '^\\d{1,2}$', description: 'On the scale of the survey type' },
    comment: { type: 'string', maxLength: 2000 },
    reason_code: { type: 'string', maxLength: 100 },
    answers: { type: 'array', items: { type: 'string', maxLength: 2000 }, description: 'One per question, in order (the field repeated)' },
  },
}

const Token = t.Object({ token: t.String({ maxLength: 100 }) })
const tags = ['Surveys']

export function publicSurveyRoutes(app: AppContext) {
  return new Elysia({ prefix: PUBLIC_SURVEY_PATH })
    .get(
      '/:token',
      async ({ request, params }) => {
        const ctx = respondentContext(app)
        const asHtml = wantsHtml(request)
        try {
          const row = await surveyOfToken(ctx, params.token)
          const view = publicSurveyJson(row, ctx.clock.now())
          if (!asHtml) return json(view)
          if (view.status === 'expired')
            return html(closedPage('This survey is closed', 'This survey expired: answers are no longer taken.'))
          const until = editableUntil(row)
          if (until !== null && ctx.clock.now() >= until)
            return html(closedPage('Thank you', 'Your answer was recorded; it can no longer be changed.'))
          return html(
            formPage({
              surveyType: row.survey_type,
              questions: view.questions,
              score: view.score,
              comment: view.comment,
              answers: JSON.parse(row.answers),
            }),
          )
        } catch (error) {
          if (asHtml) return htmlRefusal(app, request, params.token, error)
          throw error
        }
      },
      {
        params: Token,
        response: { 200: PublicSurveyBody, ...errorResponses('NOT_FOUND') },
        detail: {
          tags,
          operationId: 'getPublicSurvey',
          summary: 'A survey through its public link (no login)',
          description:
            'For the respondent. With Accept: text/html, an accessible HTML form (no script, strict Content-Security-Policy); otherwise this JSON. status is expired once expires_at has passed. An unknown or altered token is 404.',
        },
      },
    )
    .post(
      '/:token',
      async ({ request, params, body }) => {
        const ctx = respondentContext(app)
        const asHtml = wantsHtml(request)
        try {
          const row = await answerSurvey(ctx, params.token, answerOf(request, body))
          const view = publicSurveyJson(row, ctx.clock.now())
          return asHtml ? html(thanksPage(isoTime(editableUntil(row)!))) : json(view)
        } catch (error) {
          if (asHtml) return htmlRefusal(app, request, params.token, error)
          throw error
        }
      },
      {
        params: Token,
        response: { 200: PublicSurveyBody, ...errorResponses('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'answerPublicSurvey',
          summary: 'Answer a survey through its public link (no login)',
          description:
            "The first answer sets status responded and emits survey.response.completed; another within 24 hours of it replaces it (survey.response.updated); later is 409 INVALID_STATE_TRANSITION. An expired offer is 409 INVALID_STATE_TRANSITION (no answer is taken). score must be on the survey type's scale (csat 1-5, nps 0-10, ces 1-7); comment at most 2000 characters. A browser (Accept: text/html) gets a thank-you page.",
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ANSWER_SCHEMA, example: { score: 5, comment: 'Quick and friendly.' } },
              'application/x-www-form-urlencoded': { schema: FORM_SCHEMA, example: { score: '5', comment: 'Quick and friendly.' } },
            },
          },
        },
      },
    )
}
