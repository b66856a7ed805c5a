// The public survey's HTML: a minimal accessible form (a fieldset of radio buttons for the scale with
// its legend, a labelled comment box and one per question, a submit button) and the pages that follow
// it (thanks, closed). No script, no external resource; a strict Content-Security-Policy.
import { SCALES, type SurveyType } from '../table.ts'

const PROMPTS: Record<SurveyType, { legend: string; low: string; high: string }> = {
  csat: { legend: 'How satisfied are you with the help you received?', low: 'very dissatisfied', high: 'very satisfied' },
  nps: { legend: 'How likely are you to recommend us to a friend or colleague?', low: 'not at all likely', high: 'extremely likely' },
  ces: { legend: 'How easy was it to get your issue resolved?', low: 'very difficult', high: 'very easy' },
}

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#111}' +
  'fieldset{border:1px solid #888;padding:1rem}.scale{display:flex;flex-wrap:wrap;gap:.5rem}' +
  '.scale label{display:inline-flex;flex-direction:column;align-items:center;min-width:2.5rem}' +
  'textarea{width:100%;min-height:6rem}button{margin-top:1rem;padding:.5rem 1.5rem;font:inherit}' +
  ':focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}'

/** The Content-Security-Policy source of the one stylesheet: its hash, so nothing else is applied. */
const STYLE_SOURCE = `'sha256-${new Bun.CryptoHasher('sha256').update(STYLE).digest('base64')}'`

export function pageHeaders(): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src ${STYLE_SOURCE}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
}

export interface FormView {
  surveyType: SurveyType
  questions: string[]
  score: number | null
  comment: string | null
  answers: string[]
  /** Why the last submission was refused, shown above the form. */
  error?: string
}

export function formPage(view: FormView): string {
  const { min, max } = SCALES[view.surveyType]
  const prompt = PROMPTS[view.surveyType]
  const options: string[] = []
  for (let score = min; score <= max; score++) {
    const hint = score === min ? ` (${prompt.low})` : score === max ? ` (${prompt.high})` : ''
    const checked = view.score === score ? ' checked' : ''
    options.push(
      `<label for="score-${score}"><input type="radio" id="score-${score}" name="score" value="${score}" required${checked}>${score}<span class="hint">${escapeHtml(hint)}</span></label>`,
    )
  }
  const questions = view.questions.map(
    (question, i) =>
      `<p><label for="answer-${i}">${escapeHtml(question)}</label><br><input type="text" id="answer-${i}" name="answers" maxlength="2000" value="${escapeHtml(view.answers[i] ?? '')}"></p>`,
  )
  const error = view.error ? `<p role="alert">${escapeHtml(view.error)}</p>\n` : ''
  return layout(
    'Your feedback',
    `<h1>Your feedback</h1>
${error}<form method="post">
<fieldset>
<legend>${escapeHtml(prompt.legend)} (${min} = ${escapeHtml(prompt.low)}, ${max} = ${escapeHtml(prompt.high)})</legend>
<div class="scale">
${options.join('\n')}
</div>
</fieldset>
${questions.join('\n')}
<p><label for="comment">Anything you would like to add? (optional)</label><br>
<textarea id="comment" name="comment" maxlength="2000">${escapeHtml(view.comment ?? '')}</textarea></p>
<button type="submit">Send</button>
</form>`,
  )
}

export function thanksPage(editableUntil: string): string {
  return layout(
    'Thank you',
    `<h1>Thank you</h1>
<p>Your answer was recorded. You may change it through the same link until ${escapeHtml(editableUntil)}.</p>`,
  )
}

export function closedPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`)
}
