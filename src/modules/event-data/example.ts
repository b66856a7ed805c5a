// The example of each event type's data, made from its schema (schemas.ts) and the components' examples
// (examples.ts) alone: /openapi.json shows it as the type's webhook example, and a test send
// (POST /api/v1/webhooks/{id}/test) carries it, so what a receiver is shown and what it is sent agree.
import type { EventType } from '../events/index.ts'
import { COMPONENT_EXAMPLES, type ComponentName } from './examples.ts'
import { type Json, TEST } from './parts.ts'
import { EVENT_DATA } from './schemas.ts'

const COMPONENTS = '#/components/schemas/'

/**
 * An example of `schema` from what the schema itself says: its first example or its const, the example
 * of the component it refers to, the first branch of a choice, one item of an array, the required
 * properties of an object. Nothing else is made up: a value with none of these throws, naming where it is.
 */
export function exampleOf(schema: Json, at: string): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]
  if ('const' in schema) return schema.const
  if (typeof schema.$ref === 'string') return componentExample(schema.$ref, at)
  const choice = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (choice) return exampleOf(choice[0]!, at)
  if (schema.type === 'array' && schema.items) return [exampleOf(schema.items as Json, `${at}[]`)]
  if (schema.properties) {
    const properties = schema.properties as Record<string, Json>
    return Object.fromEntries(
      ((schema.required as string[] | undefined) ?? []).map((name) => [name, exampleOf(properties[name]!, `${at}.${name}`)]),
    )
  }
  throw new Error(`Event data: no example for ${at}: give its schema examples, or refer to a component that has one`)
}

function componentExample(target: string, at: string): unknown {
  const name = target.slice(COMPONENTS.length)
  if (!target.startsWith(COMPONENTS) || !Object.hasOwn(COMPONENT_EXAMPLES, name))
    throw new Error(`Event data: ${at} refers to ${target}, and COMPONENT_EXAMPLES has no example of it`)
  return COMPONENT_EXAMPLES[name as ComponentName]
}

/** The schema of one type's `data`: its properties, and `test`, which only a test send carries. */
export function dataSchema(type: EventType): Json {
  const { properties, required } = EVENT_DATA[type]
  return { type: 'object', required, properties: { ...properties, test: TEST } }
}

/** The example of one type's `data` (a copy: the caller may change it without changing the next one). */
export function exampleData(type: EventType): Record<string, unknown> {
  const { examplesFrom } = EVENT_DATA[type]
  const example = examplesFrom ? COMPONENT_EXAMPLES[examplesFrom] : exampleOf(dataSchema(type), `${type}.data`)
  return structuredClone(example) as Record<string, unknown>
}

/** What a test send of `type` carries as `data`: the documented example, marked as a test. */
export function testEventData(type: EventType): Record<string, unknown> {
  return { ...exampleData(type), test: true }
}
