// The authorization server's pages as HTML: the security headers of every page (a CSP without script,
// the one stylesheet by hash, forms only to us and the requesting client), accessible markup (lang,
// title, one main and h1, labels tied to inputs, autocomplete, errors announced and tied to the
// fields), escaping, and the cookies' names and attributes under http and https.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'
import { type BrowserPage, authorizationUrl, oauthBrowser, pageOf, registerClient } from '../../helpers/oauth-browser.ts'
import { PASSWORD, seedOrganization } from '../../helpers/seed.ts'
import { enrollTotp } from '../mfa/helpers.ts'

const app = await makeTestApp()
const secure = await makeTestApp({ AUTH_URL: 'https://auth.acme.test' })
afterAll(async () => {
  await app.close()
  await secure.close()
})
const acme = await seedOrganization(app, 'acme')
const { clientId } = await registerClient(app, acme.org.id, { name: '<script>alert(1)</script> & "Co"' })
const native = await registerClient(app, acme.org.id, { client_type: 'public', redirect_uris: ['com.example.app:/cb'] })
const url = (extra: Record<string, string> = {}) =>
  authorizationUrl(app, {
    client_id: clientId,
    redirect_uri: 'https://app.example.com/cb',
    response_type: 'code',
    scope: 'openid',
    ...extra,
  })

/** One of each page: sign-in (and with its error), MFA (and with its error), consent, the error pages, signed out. */
async function everyPage(): Promise<Record<string, BrowserPage>> {
  const mfaUser = acme.users.supervisor
  const { secret } = await enrollTotp(app, mfaUser.auth)
  expect(secret).toBeTruthy()
  const browser = oauthBrowser(app)
  const signIn = pageOf(await browser.request(url()))
  const signInError = pageOf(await browser.submit(signIn, { email: mfaUser.user.email, password: 'wrong password' }))
  const mfa = pageOf(await browser.submit(signIn, { email: mfaUser.user.email, password: PASSWORD }))
  const mfaError = pageOf(await browser.submit(mfa, { code: '000000' }, undefined, '/oauth2/auth/mfa'))
  const other = oauthBrowser(app)
  const consent = pageOf(await other.submit(pageOf(await other.request(url())), { email: acme.users.agent.user.email, password: PASSWORD }))
  const badRequest = pageOf(await oauthBrowser(app).request(url({ redirect_uri: 'https://evil.example/cb' })))
  const csrf = pageOf(await browser.submit(signIn, { email: 'a@b.c', password: 'x', csrf: 'forged' }))
  const signedOut = pageOf(await other.request('/oauth2/logout'))
  return { signIn, signInError, mfa, mfaError, consent, badRequest, csrf, signedOut }
}

const pages = await everyPage()
const directives = (page: BrowserPage) =>
  Object.fromEntries(
    (page.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  )

describe('every page', () => {
  test('has the statuses its situation calls for', () => {
    expect(Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, page.status]))).toEqual({
      signIn: 200,
      signInError: 401,
      mfa: 200,
      mfaError: 401,
      consent: 200,
      badRequest: 400,
      csrf: 403,
      signedOut: 200,
    })
  })

  test('carries the security headers: no script, no framing, no referrer, never cached, no sniffing', () => {
    for (const [name, page] of Object.entries(pages)) {
      const headers = Object.fromEntries(
        ['content-type', 'x-frame-options', 'referrer-policy', 'cache-control', 'x-content-type-options'].map((h) => [
          h,
          page.headers.get(h),
        ]),
      )
      expect(headers, name).toEqual({
        'content-type': 'text/html; charset=utf-8',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      const csp = directives(page)
      expect(Object.keys(csp).sort(), name).toEqual(['base-uri', 'default-src', 'form-action', 'frame-ancestors', 'style-src'])
      expect([csp['default-src'], csp['frame-ancestors'], csp['base-uri']], name).toEqual([["'none'"], ["'none'"], ["'none'"]])
      expect(page.html, name).not.toContain('<script')
    }
  })

  test("allows its one inline stylesheet by its hash, and nothing inline else ('unsafe-inline' never)", () => {
    for (const [name, page] of Object.entries(pages)) {
      const style = /<style>([\s\S]*?)<\/style>/.exec(page.html)![1]!
      const hash = new Bun.CryptoHasher('sha256').update(style).digest('base64')
      expect(directives(page)['style-src'], name).toEqual([`'sha256-${hash}'`])
      expect(page.html, name).not.toMatch(/\sstyle="/)
    }
  })

  test('form-action: ourselves, plus the client a form may end up redirecting to; pages without such a form only ourselves', () => {
    for (const name of ['signIn', 'signInError', 'mfa', 'mfaError', 'consent'])
      expect(directives(pages[name]!)['form-action'], name).toEqual(["'self'", 'https://app.example.com'])
    for (const name of ['badRequest', 'csrf', 'signedOut']) expect(directives(pages[name]!)['form-action'], name).toEqual(["'self'"])
  })

  test('is one accessible document: lang, a title, one main with one h1', () => {
    for (const [name, page] of Object.entries(pages)) {
      expect(page.html, name).toStartWith('<!doctype html>\n<html lang="en">')
      expect(page.html, name).toMatch(/<title>[^<]+ · Switchboard<\/title>/)
      expect(page.html.match(/<main>/g)?.length, name).toBe(1)
      expect(page.html.match(/<h1>/g)?.length, name).toBe(1)
      expect(page.html, name).toContain('<meta name="viewport"')
    }
  })

  test('is small: no page is over 8 KB', () => {
    for (const [name, page] of Object.entries(pages)) expect(page.html.length, name).toBeLessThan(8_192)
  })
})

describe('forms', () => {
  /** The visible inputs of a page: id, type, autocomplete and aria-describedby. */
  const inputs = (page: BrowserPage) =>
    [...page.html.matchAll(/<input\b([^>]*)>/g)]
      .map(([, attrs]) => Object.fromEntries([...attrs!.matchAll(/\s([a-z-]+)(?:="([^"]*)")?/g)].map(([, k, v]) => [k, v ?? ''])))
      .filter((a) => a.type !== 'hidden')

  test('every visible input has a label tied to it and the right autocomplete', () => {
    const expected: Record<string, Record<string, string>> = {
      signIn: { email: 'email', password: 'current-password' },
      mfa: { code: 'one-time-code' },
    }
    for (const [name, fields] of Object.entries(expected)) {
      const page = pages[name]!
      const found = inputs(page)
      expect(Object.fromEntries(found.map((i) => [i.id, i.autocomplete])), name).toEqual(fields)
      for (const input of found) expect(page.html, `${name} ${input.id}`).toContain(`<label for="${input.id}">`)
    }
  })

  test('an error is announced (role=alert) and named by the fields it concerns', () => {
    for (const [name, id] of [
      ['signInError', 'sign-in-error'],
      ['mfaError', 'mfa-error'],
    ] as const) {
      const page = pages[name]!
      expect(page.html, name).toContain(`<p id="${id}" class="error" role="alert">`)
      for (const input of inputs(page)) expect(input['aria-describedby'], name).toContain(id)
    }
  })

  test('every form carries a CSRF token; consent has Allow and Deny buttons', () => {
    for (const name of ['signIn', 'mfa', 'consent'])
      for (const form of pages[name]!.forms) expect(form.fields.some(([n, v]) => n === 'csrf' && v.length === 43)).toBe(true)
    expect(pages.consent!.forms[0]!.buttons).toEqual([
      ['decision', 'allow'],
      ['decision', 'deny'],
    ])
  })
})

test("the client's name is escaped wherever it appears", () => {
  for (const name of ['signIn', 'mfa', 'consent']) {
    expect(pages[name]!.html).not.toContain('<script>alert(1)</script>')
    expect(pages[name]!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;')
  }
})

test('a native app with a private-use scheme: its scheme is the form-action source', async () => {
  const page = pageOf(
    await oauthBrowser(app).request(
      authorizationUrl(app, {
        client_id: native.clientId,
        redirect_uri: 'com.example.app:/cb',
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }),
    ),
  )
  expect(directives(page)['form-action']).toEqual(["'self'", 'com.example.app:'])
})

describe('cookies', () => {
  test('under http: sb_op and sb_csrf, HttpOnly, SameSite=Lax, Path=/, not Secure (a browser would drop them)', () => {
    expect(pages.signIn!.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^sb_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/),
    ])
    const session = pages.consent!.headers.getSetCookie().find((c) => c.startsWith('sb_op='))
    expect(session).toMatch(/^sb_op=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/)
  })

  test('under https: __Host- names, Secure, no Domain', async () => {
    const org = await seedOrganization(secure, 'sec')
    const client = await registerClient(secure, org.org.id)
    const browser = oauthBrowser(secure)
    const signIn = pageOf(
      await browser.request(
        authorizationUrl(secure, {
          client_id: client.clientId,
          redirect_uri: 'https://app.example.com/cb',
          response_type: 'code',
          scope: 'openid',
        }),
      ),
    )
    expect(signIn.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-sb_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/),
    ])
    const consent = pageOf(await browser.submit(signIn, { email: org.users.agent.user.email, password: PASSWORD }))
    expect(consent.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-sb_op=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/),
    ])
    expect(consent.forms.map((f) => f.action)).toEqual(['/oauth2/auth/consent'])
  })
})

test('a step opened by GET (a reload, a bookmark) is an HTML 405 page saying to start again', async () => {
  for (const path of ['/oauth2/auth/sign-in', '/oauth2/auth/mfa', '/oauth2/auth/mfa/sms', '/oauth2/auth/consent']) {
    const page = pageOf(await oauthBrowser(app).request(path))
    expect([page.status, page.headers.get('allow'), page.headers.get('content-type')], path).toEqual([
      405,
      'POST',
      'text/html; charset=utf-8',
    ])
    expect(page.text, path).toContain('Go back to the application and start again.')
    expect(page.headers.get('x-frame-options'), path).toBe('DENY')
  }
})
