// The public link in a browser: the accessible HTML form (lang, fieldset and legend, one labelled radio
// per point of the scale, a labelled textarea, a submit button; no script, no external resource, a
// strict CSP), its form post (url-encoded, as the form sends it) answered by a thank-you page, the form
// shown again with the answer while it may change, and the pages of a closed survey and a bad link.
import { describe, expect, test } from 'bun:test'
import { FakeClock } from '../../helpers/clock.ts'
import { respondent, surveysApp, surveysClient } from './surveys-api.ts'

const clock = new FakeClock()
const { app, acme } = await surveysApp({ clock })
const { ticket, offer, get } = surveysClient(app, acme.users.admin)
const visitor = respondent(app)

async function offered(type: string, questions?: string[]) {
  const subject = await ticket()
  return offer({ survey_type: type, subject_type: 'ticket', subject_id: subject.id, ...(questions ? { questions } : {}) })
}

/** Every `<tag ...>` of the page, with its attributes. */
function tags(html: string, name: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((match) =>
    Object.fromEntries([...match[1]!.matchAll(/([a-z-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!, a[2] ?? ''])),
  )
}

describe('the HTML form', () => {
  test('is accessible and self-contained, with a strict CSP', async () => {
    const { url } = await offered('nps', ['What should we <improve>?'])
    const response = await visitor.getHtml(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const csp = response.headers.get('content-security-policy')!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("form-action 'self'")
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/)
    expect(csp).not.toContain('unsafe-inline')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const html = await response.text()
    expect(html).toStartWith('<!doctype html>')
    expect(html).toContain('<html lang="en">')
    expect(html).not.toContain('<script')
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).toMatch(/<fieldset>\s*<legend>How likely are you to recommend us/)
    const radios = tags(html, 'input').filter((input) => input.type === 'radio')
    expect(radios.map((r) => r.value)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'])
    const labels = tags(html, 'label').map((label) => label.for)
    // Every control has its label.
    for (const radio of radios) {
      expect(radio.name).toBe('score')
      expect(labels).toContain(radio.id!)
    }
    expect(radios[0]).toHaveProperty('required')
    const [textarea] = tags(html, 'textarea')
    expect(textarea).toMatchObject({ name: 'comment', maxlength: '2000' })
    expect(labels).toContain(textarea!.id!)
    const question = tags(html, 'input').find((input) => input.name === 'answers')!
    expect(labels).toContain(question.id!)
    // The question is escaped.
    expect(html).toContain('What should we &lt;improve&gt;?')
    expect(tags(html, 'form')).toEqual([{ method: 'post' }])
    expect(tags(html, 'button')).toEqual([{ type: 'submit' }])
  })

  test('posts a form body, thanks, and shows the answer again while it may change', async () => {
    const { response: survey, url } = await offered('csat', ['Anything else?'])
    const answered = await visitor.postForm(url, [
      ['score', '5'],
      ['comment', 'Great & quick'],
      ['answers', 'No, all good'],
    ])
    expect(answered.status).toBe(200)
    expect(answered.headers.get('content-security-policy')).toContain("default-src 'none'")
    const thanks = await answered.text()
    expect(thanks).toContain('<h1>Thank you</h1>')
    expect(thanks).toContain(new Date(clock.now() + 24 * 3_600_000).toISOString())
    expect(await get(survey.id)).toMatchObject({ status: 'responded', score: 5, comment: 'Great & quick', answers: ['No, all good'] })
    const again = await (await visitor.getHtml(url)).text()
    expect(again).toContain('value="5" required checked')
    expect(again).toContain('>Great &amp; quick</textarea>')
    expect(again).toContain('value="No, all good"')
    clock.advance(24 * 3_600_000)
    const closed = await visitor.getHtml(url)
    expect(closed.status).toBe(200)
    expect(await closed.text()).toContain('can no longer be changed')
    const late = await visitor.postForm(url, [['score', '1']])
    expect(late.status).toBe(409)
    expect(await late.text()).toContain('<h1>This survey is closed</h1>')
  })

  test('a form without a score, or off the scale, gets the form again with the reason (400)', async () => {
    const { url } = await offered('ces')
    for (const fields of [[], [['score', '9']], [['score', 'abc']]] as [string, string][][]) {
      const response = await visitor.postForm(url, [...fields, ['comment', 'kept <as typed>']])
      expect(response.status).toBe(400)
      const html = await response.text()
      expect(html).toContain('<p role="alert">Please check your answer (score:')
      expect(html).toContain('<form method="post">')
      expect(html).toContain('>kept &lt;as typed&gt;</textarea>')
    }
  })

  test('a bad link and an expired survey get pages, not JSON', async () => {
    const missing = await visitor.getHtml(`https://x/s/${'A'.repeat(43)}`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await missing.text()).toContain('This link is not valid.')
    const { url } = await offered('csat')
    clock.advance(app.config.surveyExpiryMs)
    expect(await (await visitor.getHtml(url)).text()).toContain('This survey expired')
    const refused = await visitor.postForm(url, [['score', '4']])
    expect(refused.status).toBe(409)
    expect(await refused.text()).toContain('expired')
  })
})
