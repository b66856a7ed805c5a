// The errors of a TypeBox check (Elysia's validation, or Value.Errors) as a 400's `errors`: one entry per
// field, named by its path, in words a client can act on.

export interface ValueErrorLike {
  path: string
  message: string
  value?: unknown
  schema: Record<string, unknown> & { anyOf?: Record<string, unknown>[] }
  /** For a union: the errors of each variant, in order. */
  errors?: Iterable<ValueErrorLike>[]
}

/**
 * A value given for a nullable field (X | null) that is not null failed X: report X's own error (e.g.
 * `requester.name`) rather than "expected object or null" at the parent.
 */
function innermost(e: ValueErrorLike): ValueErrorLike {
  const variants = e.schema.anyOf
  if (e.value === null || !Array.isArray(variants) || !e.errors || variants.length !== 2) return e
  const nonNull = variants.findIndex((v) => v.type !== 'null')
  if (nonNull === -1 || variants[1 - nonNull]!.type !== 'null') return e
  for (const inner of e.errors[nonNull] ?? []) return innermost(inner)
  return e
}

/** The errors of a TypeBox check (`Value.Errors`) in the words of a 400's `errors`, one per field. */
export function valueFieldErrors(all: Iterable<ValueErrorLike>, location?: string): { field: string; message: string }[] {
  const byField = new Map<string, string>()
  for (const found of all) {
    const e = innermost(found)
    const path = e.path.replace(/^\//, '').replaceAll('/', '.')
    // Coerced query/params numbers fail deep inside a transform and lose their path;
    // schemas that need it name themselves with `x-field`.
    const field = path || (e.schema['x-field'] as string | undefined) || location || 'request'
    if (!byField.has(field)) byField.set(field, friendlyMessage(e))
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

function friendlyMessage(e: ValueErrorLike): string {
  if (e.schema.error !== undefined && typeof e.schema.error === 'string') return e.schema.error
  const variants = e.schema.anyOf
  if (e.message === 'Expected union value' && Array.isArray(variants)) {
    const literals = variants.filter((v) => 'const' in v).map((v) => JSON.stringify(v.const))
    if (literals.length === variants.length) return `Expected one of ${literals.join(', ')}`
    // Elysia's coercing types are unions of a string source and the real type: name the real one.
    const types = [...new Set(variants.map((v) => v.type).filter((t): t is string => typeof t === 'string' && t !== 'string'))]
    if (types.length > 0) return `Expected ${types.join(' or ')}`
  }
  return e.message
}
