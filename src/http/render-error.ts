// The one error renderer: turns whatever was thrown (AppError, Elysia parse/validation/not-found
// errors, anything unexpected) into the JSON error body every error has (docs/api-conventions.md).
import type { ValidationError } from 'elysia'
import { DatabaseBusy } from '../db/retry.ts'
import { isDatabaseUnavailable } from '../db/unavailable.ts'
import { WriterLockTimeout } from '../db/writer-lock.ts'
import { AppError, type FieldError } from '../errors.ts'
import { isStorageUnavailable } from '../lib/storage-unavailable.ts'
import type { RouteTable } from '../lib/route-match.ts'
import { type ValueErrorLike, valueFieldErrors } from '../lib/value-errors.ts'
import { isJson, mediaType, unsupportedMediaType } from './body.ts'
import { pathOf } from './request-state.ts'

export interface ErrorBodyJson {
  code: string
  message: string
  request_id: string
  errors?: FieldError[]
}

/** The spec's 429 body, exactly: the request id travels in the X-Request-Id header only. */
export interface RateLimitedBodyJson {
  code: 429
  message: string
  retry_after: number
  error: 'RATE_LIMITED'
}

export interface RenderedError {
  status: number
  headers: Record<string, string>
  body: ErrorBodyJson | RateLimitedBodyJson
}

/** Maps an error caught by Elysia to an AppError; `internal` (our failures) is for the log, never the client. */
export function toAppError(code: unknown, error: unknown, request: Request, routes: RouteTable): { error: AppError; internal?: unknown } {
  if (error instanceof AppError) return { error }
  switch (code) {
    case 'PARSE': {
      const cause = (error as Error).cause
      if (cause instanceof AppError) return { error: cause }
      return {
        error: new AppError('VALIDATION_FAILED', 'The request body could not be parsed', {
          errors: [{ field: 'body', message: bodyParseMessage(request) }],
        }),
      }
    }
    case 'VALIDATION':
      return validationToAppError(error as ValidationError, request)
    case 'NOT_FOUND': {
      const allowed = routes.allowedMethods(pathOf(request.url))
      if (allowed.length === 0) return { error: new AppError('NOT_FOUND', 'No route matches this path') }
      const allow = allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed
      return {
        error: new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${allow.join(', ')}`, {
          headers: { allow: allow.join(', ') },
        }),
      }
    }
    default:
      // PostgreSQL away: the client may try again; the log says why (INTERNAL would read as a bug).
      if (isDatabaseUnavailable(error))
        return {
          error: new AppError('SERVICE_UNAVAILABLE', 'The database cannot be reached: try again shortly', {
            headers: { 'retry-after': '1' },
          }),
          internal: error,
        }
      // Contention: the write was run again and still conflicted, or waited past its lock or statement timeout.
      if (error instanceof DatabaseBusy || error instanceof WriterLockTimeout)
        return {
          error: new AppError('SERVICE_UNAVAILABLE', 'The database is busy with other writes: try again shortly', {
            headers: { 'retry-after': '1' },
          }),
          internal: error,
        }
      if (isStorageUnavailable(error))
        return {
          error: new AppError('SERVICE_UNAVAILABLE', 'The file storage cannot be reached: try again shortly', {
            headers: { 'retry-after': '1' },
          }),
          internal: error,
        }
      return { error: new AppError('INTERNAL'), internal: error }
  }
}

export function renderError(appError: AppError, requestId: string): RenderedError {
  if (appError.code === 'RATE_LIMITED') {
    const retryAfter = appError.retryAfter ?? 1
    return {
      status: 429,
      headers: { ...appError.headers, 'retry-after': String(retryAfter) },
      body: { code: 429, message: appError.message, retry_after: retryAfter, error: 'RATE_LIMITED' },
    }
  }
  const body: ErrorBodyJson = { code: appError.code, message: appError.message, request_id: requestId }
  if (appError.errors) body.errors = appError.errors
  const headers = { ...appError.headers }
  // Every 401 names its scheme (RFC 7235 §3.1), whichever route answered it.
  if (appError.status === 401 && !headers['www-authenticate']) headers['www-authenticate'] = 'Bearer realm="switchboard"'
  return { status: appError.status, headers, body }
}

function bodyParseMessage(request: Request): string {
  const type = mediaType(request.headers.get('content-type'))
  return isJson(type) ? 'Malformed JSON' : `Could not parse a ${type || 'body'}`
}

function validationToAppError(error: ValidationError, request: Request): { error: AppError; internal?: unknown } {
  // A response that does not match its own schema is our bug, not the client's.
  if (error.type === 'response') return { error: new AppError('INTERNAL'), internal: error }
  // A body schema is JSON's: a body of another type was refused before parsing (platform.ts), so one is
  // here only when empty (or without a Content-Type): the same 415, rather than every field missing.
  if (error.type === 'body' && !isJson(mediaType(request.headers.get('content-type')))) return { error: unsupportedMediaType() }
  return { error: new AppError('VALIDATION_FAILED', undefined, { errors: fieldErrors(error) }) }
}

/** One entry per offending field, in the order found; `a.b.0` for nested paths. */
export function fieldErrors(error: ValidationError): FieldError[] {
  return valueFieldErrors(error.all as unknown as ValueErrorLike[], error.type === 'property' ? undefined : error.type)
}
