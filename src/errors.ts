// AppError and the closed list of error codes with their HTTP statuses; framework-free.

/** Every code the API can answer with, its HTTP status and the message used when none is given. */
export const ERROR_CODES = {
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid' },
  INVALID_PAGE_TOKEN: { status: 400, message: 'The page token is invalid or expired' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication is required' },
  INVALID_CREDENTIALS: { status: 401, message: 'E-mail or password is incorrect' },
  TOKEN_EXPIRED: { status: 401, message: 'The token has expired' },
  TOKEN_INVALID: { status: 401, message: 'The token is malformed or revoked' },
  INVALID_MFA_CODE: { status: 401, message: 'The verification code is incorrect' },
  INSUFFICIENT_PERMISSIONS: { status: 403, message: 'The token lacks a required permission' },
  IP_NOT_ALLOWED: { status: 403, message: 'Requests from this address are not allowed for this organization' },
  SESSION_LIMIT_REACHED: { status: 403, message: 'The maximum number of concurrent sessions is reached' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'This credential is accepted only from this server’s own pages' },
  MFA_ENROLLMENT_REQUIRED: { status: 403, message: 'Your organization requires multi-factor authentication: enroll a method first' },
  PAYMENT_FAILED: { status: 402, message: 'The payment failed' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state' },
  INVALID_STATE_TRANSITION: { status: 409, message: 'The state transition is not allowed' },
  LIMIT_REACHED: { status: 409, message: 'A limit on the number of these resources is reached' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This Idempotency-Key was used with another request (method, path or body)' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, message: 'A request with this Idempotency-Key is still in progress: retry later' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The content type is not supported' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The range asked for is outside the file' },
  RATE_LIMITED: { status: 429, message: 'Too many requests' },
  INTERNAL: { status: 500, message: 'Internal error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is unavailable' },
} as const satisfies Record<string, { status: number; message: string }>

export type ErrorCode = keyof typeof ERROR_CODES

export interface FieldError {
  field: string
  message: string
}

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors: FieldError[] | undefined
  /** Extra response headers, e.g. `Allow` for 405 or `WWW-Authenticate` for 401. */
  readonly headers: Record<string, string> | undefined
  /** RATE_LIMITED: seconds until a retry can succeed. */
  readonly retryAfter: number | undefined

  constructor(
    code: ErrorCode,
    message?: string,
    extra: { errors?: FieldError[]; headers?: Record<string, string>; retryAfter?: number } = {},
  ) {
    super(message ?? ERROR_CODES[code].message)
    this.name = 'AppError'
    this.code = code
    this.status = ERROR_CODES[code].status
    this.errors = extra.errors
    this.headers = extra.headers
    this.retryAfter = extra.retryAfter
  }
}

/** Shorthand for a 400 naming each offending field. */
export function validationError(errors: FieldError[], message?: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { errors })
}

/** 429 with the seconds to wait (the renderer adds Retry-After and the spec's body). */
export function rateLimited(retryAfterS: number, message?: string): AppError {
  return new AppError('RATE_LIMITED', message, { retryAfter: Math.max(1, Math.ceil(retryAfterS)) })
}
