// Schema helpers for routes. oneOf() replaces Elysia's t.UnionEnum, which gives the schema a default
// (its first value): an optional field left out of a request would arrive filled in with it.
import { Type, type TLiteral, type TUnion, type TUnsafe } from '@sinclair/typebox'
import { t } from 'elysia'

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> }

export function oneOf<const T extends readonly string[]>(values: T, options: { description?: string } = {}): TUnion<Literals<T>> {
  return t.Union(
    values.map((value) => t.Literal(value)),
    options,
  ) as unknown as TUnion<Literals<T>>
}

/** oneOf() for values only known at run time (e.g. `field:direction` pairs): validated the same, typed as string. */
export function oneOfStrings(values: readonly string[], options: { description?: string } = {}): TUnsafe<string> {
  return Type.Unsafe<string>(
    t.Union(
      values.map((value) => t.Literal(value)),
      options,
    ),
  )
}
