// One HTTP attempt of a delivery, outside any transaction: resolve the host, refuse it if any address
// is not public (unless the organization's allowed ranges let it in), connect to the address that was checked
// (TLS still verifies the host name), POST the stored bytes signed, never follow a redirect, give up
// at WEBHOOK_TIMEOUT_MS, read at most 64 KB of the answer and keep the first 16 KB.
import { lookup } from 'node:dns/promises'
import type { Cidr } from '../../lib/cidr.ts'
import { isAddressAllowed, literalHostAddress, type Decision } from '../../lib/address-policy.ts'
import { memoize } from '../../lib/memo.ts'
import { deliveryHeaders } from '../../lib/webhook-signature.ts'

export const READ_LIMIT_BYTES = 64 * 1024
export const KEEP_BYTES = 16 * 1024

export type ErrorClass = 'timeout' | 'dns' | 'tls' | 'connect' | 'http_status' | 'redirect' | 'ssrf_blocked'

export interface AttemptRequest {
  url: string
  secret: string
  body: string
  eventId: string
  deliveryId: string
  attempt: number
  userAgent: string
  now: number
}

export interface AttemptOutcome {
  ok: boolean
  responseCode: number | null
  responseTimeMs: number
  responseBody: string | null
  errorClass: ErrorClass | null
  errorMessage: string | null
  /** Seconds a 429 or 503 asked us to wait (Retry-After), if it did. */
  retryAfterS: number | null
}

export interface AttemptOptions {
  timeoutMs: number
  allowedCidrs: readonly Cidr[]
  /** Extra trusted CA certificates (PEM) besides the system's and NODE_EXTRA_CA_CERTS. */
  extraCa?: string
  signal?: AbortSignal
  /** Host name -> addresses; node's resolver by default. */
  resolve?: (hostname: string) => Promise<string[]>
}

/** The system resolver (getaddrinfo): every address of a name, as the OS orders them. */
export async function resolveAll(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)
}

function failed(errorClass: ErrorClass, errorMessage: string, started: number, extra: Partial<AttemptOutcome> = {}): AttemptOutcome {
  return {
    ok: false,
    responseCode: null,
    responseTimeMs: Math.round(performance.now() - started),
    responseBody: null,
    errorClass,
    errorMessage,
    retryAfterS: null,
    ...extra,
  }
}

// Both checks are pure (for one allowlist) and cost more than the rest of a send's own work: a
// dispatcher sends to few hosts many times, so each answer is kept.
const memoLiteral = memoize(literalHostAddress)
const decisionsFor = new WeakMap<readonly Cidr[], (address: string) => Decision>()

function memoDecision(address: string, allowed: readonly Cidr[]): Decision {
  let decide = decisionsFor.get(allowed)
  if (!decide) decisionsFor.set(allowed, (decide = memoize((ip: string) => isAddressAllowed(ip, allowed))))
  return decide(address)
}

/** The parsed URL, shared: callers must not change it. */
const parsedUrl = memoize((text: string) => new URL(text))

function pinnedHref(url: URL, address: string): string {
  const target = new URL(url)
  target.hostname = address.includes(':') ? `[${address}]` : address
  return target.href
}

/** The address to connect to, after the SSRF check of every address the name has. */
async function pinnedAddress(
  url: URL,
  options: AttemptOptions,
): Promise<{ address: string } | { error: AttemptOutcome['errorClass']; message: string }> {
  const literal = memoLiteral(url.hostname)
  let addresses: string[]
  if (literal !== undefined) addresses = [literal.replace(/^\[|\]$/g, '')]
  else {
    try {
      addresses = await (options.resolve ?? resolveAll)(url.hostname)
    } catch (error) {
      return { error: 'dns', message: `${url.hostname} could not be resolved: ${(error as Error).message}` }
    }
    if (addresses.length === 0) return { error: 'dns', message: `${url.hostname} has no addresses` }
  }
  for (const address of addresses) {
    const verdict = memoDecision(address, options.allowedCidrs)
    if (!verdict.ok)
      return {
        error: 'ssrf_blocked',
        message: `${url.hostname} resolves to ${address}, a ${verdict.reason} address: refused (the operator can allow it for this organization)`,
      }
  }
  return { address: addresses[0]! }
}

const decoder = new TextDecoder('utf-8', { fatal: false })

/** Reads at most READ_LIMIT_BYTES of the body, then stops; returns the first KEEP_BYTES as text. */
async function readLimited(response: Response): Promise<string> {
  const length = Number(response.headers.get('content-length') ?? NaN)
  if (length <= READ_LIMIT_BYTES) {
    // Framed by its length (the usual short answer): read whole, without a stream reader.
    return decoder.decode(new Uint8Array(await response.arrayBuffer()).subarray(0, KEEP_BYTES))
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    while (total < READ_LIMIT_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      total += value.byteLength
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
  return decoder.decode(Buffer.concat(chunks).subarray(0, KEEP_BYTES))
}

function classify(error: unknown): { errorClass: ErrorClass; message: string } {
  const e = error as { name?: string; code?: string; message?: string }
  const message = e.message ?? String(error)
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return { errorClass: 'timeout', message: 'the receiver did not answer in time' }
  const code = e.code ?? ''
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code + ' ' + message))
    return { errorClass: 'tls', message: `TLS: ${code || message}` }
  return { errorClass: 'connect', message: code ? `${code}: ${message}` : message }
}

function retryAfterSeconds(header: string | null, now: number): number | null {
  if (header === null) return null
  if (/^\d{1,9}$/.test(header.trim())) return Number(header.trim())
  const at = Date.parse(header)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000))
}

export async function sendAttempt(request: AttemptRequest, options: AttemptOptions): Promise<AttemptOutcome> {
  const started = performance.now()
  const url = parsedUrl(request.url)
  const pinned = await pinnedAddress(url, options)
  if ('error' in pinned) return failed(pinned.error!, pinned.message, started)
  // A literal address is its own pin; a name is replaced by the address that was checked.
  const target = pinned.address === memoLiteral(url.hostname) ? url.href : pinnedHref(url, pinned.address)
  const headers = deliveryHeaders({
    secret: request.secret,
    eventId: request.eventId,
    deliveryId: request.deliveryId,
    attempt: request.attempt,
    timestampS: Math.floor(request.now / 1000),
    body: request.body,
    userAgent: request.userAgent,
  })
  const timeout = AbortSignal.timeout(options.timeoutMs)
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: { ...headers, host: url.host },
      body: request.body,
      redirect: 'manual',
      signal,
      tls: { serverName: url.hostname, ...(options.extraCa ? { ca: options.extraCa } : {}) },
    } as RequestInit)
    const responseBody = await readLimited(response)
    const responseTimeMs = Math.round(performance.now() - started)
    const base = { responseCode: response.status, responseTimeMs, responseBody, retryAfterS: null }
    if (response.status >= 200 && response.status < 300) return { ok: true, ...base, errorClass: null, errorMessage: null }
    if (response.status >= 300 && response.status < 400) {
      return {
        ok: false,
        ...base,
        errorClass: 'redirect',
        errorMessage: `answered ${response.status}; redirects are not followed (register the final URL)`,
      }
    }
    const retryAfterS =
      response.status === 429 || response.status === 503 ? retryAfterSeconds(response.headers.get('retry-after'), request.now) : null
    return { ok: false, ...base, retryAfterS, errorClass: 'http_status', errorMessage: `answered ${response.status}` }
  } catch (error) {
    const { errorClass, message } = classify(error)
    return failed(errorClass, message, started)
  }
}
