// Checks settings given as text against their TypeBox declarations: strict numbers and booleans, defaults, one-line errors.
import { Type, type TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ConfigError, type SettingValues } from './settings.ts'

/**
 * `given(name)`: the text given for a setting (trimmed here; empty counts as unset). A declaration
 * with `x-default` may stay unset; `x-secret` keeps the value out of the error. Throws ConfigError on
 * the first invalid setting, in declaration order.
 */
export function readSettings(settings: Readonly<Record<string, TSchema>>, given: (name: string) => string | undefined): SettingValues {
  const raw: Record<string, unknown> = {}
  for (const name of Object.keys(settings)) {
    const value = given(name)
    if (value !== undefined && value !== '') raw[name] = coerce(settings[name]!, value.trim())
  }
  const schema = Type.Object(Object.fromEntries(Object.entries(settings).map(([k, s]) => [k, 'x-default' in s ? Type.Optional(s) : s])))
  const values = Value.Default(schema, raw) as Record<string, unknown>
  const first = Value.Errors(schema, values).First()
  if (first) {
    const name = first.path.slice(1)
    // Secrets are never echoed, not even into an error message.
    const got = 'x-secret' in settings[name]! ? '' : ` (got ${JSON.stringify(raw[name])})`
    throw new ConfigError(`${name} ${expectation(settings[name]!)}${got}`)
  }
  return values
}

// Numbers arrive as text; accept plain decimal digits only (and a decimal point where fractions are
// allowed), so "1e3", "0x10", ".5" or "12abc" are refused.
function coerce(schema: TSchema, text: string): unknown {
  if (schema.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : text
  if (schema.type === 'number') return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text
  return text
}

function expectation(schema: TSchema): string {
  if (schema.type === 'integer') return `must be an integer from ${schema.minimum} to ${schema.maximum}`
  if (schema.type === 'number') return `must be a number from ${schema.minimum} to ${schema.maximum} (decimals allowed)`
  if (schema.type === 'boolean') return 'must be true or false'
  if (schema.maxLength !== undefined) return `must be ${schema.minLength ?? 0} to ${schema.maxLength} characters`
  if (Array.isArray(schema.anyOf)) return `must be one of: ${schema.anyOf.map((s: TSchema) => s.const).join(', ')}`
  return 'must not be empty'
}
