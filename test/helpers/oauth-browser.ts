// A small cookie-keeping "browser" for the authorization server's pages: it follows our own redirects,
// keeps cookies, reads our forms and submits them (e-mail and password, the MFA code, Allow or Deny),
// and stops at the first redirect that leaves the server: the client's callback. Works in-process on a
// TestApp (app.handle) or over the network on a base URL.
//
//   const browser = oauthBrowser(app)
//   const callback = await browser.authorize(url, { email, password, totp: () => totpAt(secret, app.clock.now()), consent: 'allow' })
import { contextFor } from '../../src/context.ts'
import { createOAuthClient, type NewOAuthClient } from '../../src/modules/oauth-clients/index.ts'
import type { TestApp } from './app.ts'

export interface ParsedForm {
  action: string
  method: string
  /** Hidden and filled-in inputs, in order. */
  fields: Array<[string, string]>
  /** Submit buttons that carry a name=value. */
  buttons: Array<[string, string]>
}

export interface BrowserPage {
  url: string
  status: number
  headers: Headers
  html: string
  forms: ParsedForm[]
  /** The page's visible text, roughly (tags removed, whitespace folded). */
  text: string
}

export type Step = { kind: 'page'; page: BrowserPage } | { kind: 'redirect'; status: number; location: string; headers: Headers }

export interface Answers {
  email?: string
  password?: string
  /** The code for the MFA page (a TOTP code, an SMS code or a recovery code); a function is asked each time. */
  code?: string | (() => string)
  totp?: string | (() => string)
  consent?: 'allow' | 'deny'
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m]!)
const attribute = (tag: string, name: string) => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)
  return match ? decode(match[1]!) : undefined
}

/** The forms of one of our pages (our own markup: double-quoted attributes, no nesting). */
export function parseForms(html: string): ParsedForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, open, inner]) => ({
    action: attribute(open!, 'action') ?? '',
    method: (attribute(open!, 'method') ?? 'get').toUpperCase(),
    fields: [...inner!.matchAll(/<input\b[^>]*>/g)].flatMap(([tag]): Array<[string, string]> => {
      const name = attribute(tag, 'name')
      return name === undefined ? [] : [[name, attribute(tag, 'value') ?? '']]
    }),
    buttons: [...inner!.matchAll(/<button\b[^>]*>/g)].flatMap(([tag]): Array<[string, string]> => {
      const name = attribute(tag, 'name')
      return name === undefined ? [] : [[name, attribute(tag, 'value') ?? '']]
    }),
  }))
}

export class OAuthBrowser {
  readonly cookies = new Map<string, string>()
  /** The last page shown, for assertions. */
  lastPage: BrowserPage | undefined

  constructor(
    private readonly fetcher: (url: string, init: RequestInit) => Promise<Response>,
    private readonly ours: (url: URL) => boolean,
    private readonly base: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const at = pair!.indexOf('=')
      const name = pair!.slice(0, at).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a))
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(at + 1).trim())
    }
  }

  /** One request with our cookies; our own redirects are followed, the first one elsewhere is returned. */
  async request(
    url: string | URL,
    init: { method?: string; form?: Array<[string, string]>; headers?: Record<string, string> } = {},
  ): Promise<Step> {
    let target = new URL(url, this.base)
    let method = init.method ?? (init.form ? 'POST' : 'GET')
    let body = init.form ? new URLSearchParams(init.form).toString() : undefined
    for (let hops = 0; hops < 10; hops++) {
      const headers: Record<string, string> = { ...this.extraHeaders, ...init.headers }
      if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
      if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
      const response = await this.fetcher(target.href, { method, headers, body, redirect: 'manual' })
      this.remember(response)
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location !== null) {
        const next = new URL(location, target)
        if (!this.ours(next)) return { kind: 'redirect', status: response.status, location: next.href, headers: response.headers }
        target = next
        method = 'GET'
        body = undefined
        continue
      }
      const html = await response.text()
      const text = decode(html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim()
      this.lastPage = { url: target.href, status: response.status, headers: response.headers, html, forms: parseForms(html), text }
      return { kind: 'page', page: this.lastPage }
    }
    throw new Error(`more than 10 redirects from ${url}`)
  }

  /** Submits a form of `page` (the one posting to `action`, or the first), with `values` filled in and an optional button pressed. */
  submit(page: BrowserPage, values: Record<string, string> = {}, button?: [string, string], action?: string): Promise<Step> {
    const form = page.forms.find((f) => action === undefined || f.action === action)
    if (!form) throw new Error(`no form${action ? ` posting to ${action}` : ''} on the page: ${page.text}`)
    const fields = form.fields.map(([name, value]): [string, string] => [name, values[name] ?? value])
    for (const [name, value] of Object.entries(values)) if (!fields.some(([n]) => n === name)) fields.push([name, value])
    return this.request(new URL(form.action, page.url).href, { method: form.method, form: button ? [...fields, button] : fields })
  }

  /** Walks sign-in, MFA and consent as `answers` say, and returns the URL the server sent the browser to (the client's). */
  async authorize(url: string | URL, answers: Answers = {}): Promise<string> {
    let step = await this.request(url)
    for (let pages = 0; pages < 6; pages++) {
      if (step.kind === 'redirect') return step.location
      const { page } = step
      // A refusal (wrong password or code, 403, 429, ...): walking on would only repeat it.
      if (page.status >= 400) throw new Error(`refused on the way: ${page.status} ${page.text}`)
      const actions = page.forms.map((f) => f.action)
      const need = (what: string, value: string | (() => string) | undefined) => {
        if (value === undefined) throw new Error(`the ${what} page needs an answer it was not given: ${page.status} ${page.text}`)
        return typeof value === 'function' ? value() : value
      }
      if (actions.includes('/oauth2/auth/sign-in'))
        step = await this.submit(page, { email: need('sign-in', answers.email), password: need('sign-in', answers.password) })
      else if (actions.includes('/oauth2/auth/mfa'))
        step = await this.submit(page, { code: need('MFA', answers.code ?? answers.totp) }, undefined, '/oauth2/auth/mfa')
      else if (actions.includes('/oauth2/auth/consent')) step = await this.submit(page, {}, ['decision', answers.consent ?? 'allow'])
      else throw new Error(`stopped on a page: ${page.status} ${page.text}`)
    }
    throw new Error('too many pages')
  }
}

/** A browser for an app in-process (requests go through app.handle), or for a server at a base URL. */
export function oauthBrowser(target: TestApp | string, options: { headers?: Record<string, string> } = {}): OAuthBrowser {
  if (typeof target === 'string') {
    const origin = new URL(target).origin
    return new OAuthBrowser(
      (url, init) => fetch(url, init),
      (u) => u.origin === origin,
      target,
      options.headers,
    )
  }
  const origin = new URL(target.config.authUrl).origin
  const fetcher = async (url: string, init: RequestInit) => {
    const response = await target.app.handle(new Request(url, init))
    // Elysia writes the access log in a setImmediate after the response; let it run.
    await new Promise((resolve) => setImmediate(resolve))
    return response
  }
  return new OAuthBrowser(fetcher, (u) => u.origin === origin, target.config.authUrl, options.headers)
}

/** Registers an OAuth client of an organization as the operator would (the CLI); its client_id and secret. */
export async function registerClient(
  app: TestApp,
  organizationId: string,
  settings: Omit<NewOAuthClient, 'organization_id' | 'name'> & { name?: string } = {},
): Promise<{ clientId: string; secret: string | null }> {
  const ctx = contextFor(app.context, { kind: 'system', id: 'cli' })
  const { row, secret } = await createOAuthClient(ctx, {
    name: 'Helpdesk dashboard',
    redirect_uris: ['https://app.example.com/cb'],
    ...settings,
    organization_id: organizationId,
  })
  return { clientId: row.id, secret }
}

/** An authorization URL of the app for `params` (client_id, redirect_uri, ...). */
export function authorizationUrl(app: TestApp, params: Record<string, string>): string {
  return `${app.config.authUrl}/oauth2/auth?${new URLSearchParams(params)}`
}

/** The parameters of a redirect to a client, and the URI without them. */
export function callbackOf(location: string): { uri: string; params: Record<string, string> } {
  const url = new URL(location)
  const params = Object.fromEntries(url.searchParams)
  url.search = ''
  return { uri: url.href, params }
}

/** The page a step showed (throws, saying where it went, if it redirected). */
export function pageOf(step: Step): BrowserPage {
  if (step.kind !== 'page') throw new Error(`expected a page, got a ${step.status} redirect to ${step.location}`)
  return step.page
}

/** Where a step redirected to (throws, with the page's text, if it showed a page). */
export function locationOf(step: Step): string {
  if (step.kind !== 'redirect') throw new Error(`expected a redirect, got the page ${step.page.status} ${step.page.text}`)
  return step.location
}
