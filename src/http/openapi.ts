// OpenAPI 3.1 document at /openapi.json and an interactive reference at /docs, both generated from
// the runtime `t` schemas of the routes (never fromTypes(), which fails inside a compiled binary).
// @elysiajs/openapi's generator builds the paths; http/openapi-document.ts finishes the document.
// Not the plugin itself: its route cannot be given the finishing step, and its own page loads its
// script from a CDN; ours (http/docs-page.ts) serves it from the binary.
import { Elysia } from 'elysia'
import type { Config } from '../config.ts'
import { VERSION } from '../version.ts'
import { docsPage } from './docs-page.ts'
import { buildDocument } from './openapi-document.ts'

export const OPENAPI_PATH = '/openapi.json'

export function apiDocs(config: Config) {
  const docs = new Elysia()
  // Built and serialized at the first request, when every route is registered; served from memory after.
  let document: string | undefined
  return docs
    .get(
      OPENAPI_PATH,
      () =>
        new Response((document ??= JSON.stringify(buildDocument(docs, documentation(config)))), {
          headers: { 'content-type': 'application/json' },
        }),
      {
        detail: { hide: true },
      },
    )
    .use(docsPage(config, OPENAPI_PATH))
}

/** Info, servers, tags and security schemes: what the routes cannot say about themselves. */
function documentation(config: Config) {
  return {
    info: {
      title: 'Switchboard API',
      version: VERSION,
      description:
        'Self-hosted customer-engagement platform API. Errors are JSON `{code, message, request_id, errors?}` (a 429 is `{code: 429, message, retry_after, error}`, with `Retry-After`); every response carries `X-Request-Id`. A body goes as JSON (`Content-Type: application/json`) except where an operation says otherwise: another type is 415 `UNSUPPORTED_MEDIA_TYPE`. A list or an export answers a query parameter it does not define with 400 `VALIDATION_FAILED` naming it (`errors[].field`) and the ones it knows. Requests are rate-limited per user, per organization (by plan), per client address (unauthenticated) and on some endpoints; every counted response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds) of the most constraining window (/health, /ready and /.well-known/* are not counted).',
    },
    servers: [{ url: config.publicUrl }],
    tags: [
      { name: 'System', description: 'Liveness, readiness and the cron loop' },
      { name: 'Auth', description: 'Sign-in, tokens and signing keys' },
      { name: 'MFA', description: 'Second factors (TOTP, SMS, recovery codes): enrollment and the second step of a sign-in' },
      { name: 'Sessions', description: 'Live sessions: list and end them' },
      { name: 'API keys', description: 'Personal access tokens for scripts and integrations' },
      { name: 'Organization', description: 'Security settings: IP allowlist, session limit, MFA requirement' },
      { name: 'Audit', description: 'The hash-chained audit log' },
      { name: 'Users', description: "Users and roles of the caller's organization" },
      { name: 'Tickets', description: 'Tickets, their lifecycle, assignment and comments' },
      { name: 'Accounts', description: 'CRM: companies, with their domain, owner, tags and custom fields' },
      { name: 'Contacts', description: 'CRM: people, searchable, with their consent, account and tickets; merge duplicates' },
      { name: 'Leads', description: 'Leads, their lifecycle and conversion into contacts and accounts' },
      { name: 'Uploads', description: 'Files: streamed uploads, downloads with ranges, signed links' },
      { name: 'Calls', description: 'Calls, their lifecycle and recordings; Twilio status callbacks' },
      { name: 'Recordings', description: 'Call recordings: their audio, processing and retention' },
      { name: 'Agents', description: "Agents' profiles, status, sessions and activities" },
      {
        name: 'Billing',
        description: "The organization's plan, subscription, invoices (with PDFs), payments and billing settings",
      },
      {
        name: 'Operator',
        description: "The installation operator's API (an operator token): plans and prices, each organization's billing",
      },
      { name: 'Events', description: "The organization's events live, as Server-Sent Events, resumable with Last-Event-ID" },
      { name: 'Webhooks', description: "Receivers of the organization's events: signed deliveries with retries" },
      {
        name: 'OAuth clients',
        description: 'Applications that may ask the authorization server for tokens: redirect URIs, grants, scopes, secrets',
      },
      { name: 'OAuth grants', description: 'What you let OAuth clients do on your behalf: list and revoke' },
      { name: 'Webhook events', description: 'What a receiver gets: one POST per event type of the catalog (the `webhooks` section)' },
    ],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from POST /api/v1/auth/login, or a personal access token (pat_live_…) from POST /api/v1/api-keys',
        },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A personal access token (pat_live_…)' },
        operatorAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An operator token (sbo_…) from `switchboard operator-token create`: the installation operator, above every organization',
        },
      },
    },
  }
}
