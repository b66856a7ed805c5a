// docs/events.md, generated from the event catalog and the event data schemas (what every type's `data`
// holds, and an example): `bun scripts/event-catalog.ts` writes it; test/docs-events.test.ts checks it.
import { join } from 'node:path'
import { EVENT_DATA, exampleData } from '../src/modules/event-data/index.ts'
import { EVENT_TYPES, type EventType } from '../src/modules/events/index.ts'

export const EVENTS_PAGE = join(import.meta.dir, '..', 'docs', 'events.md')

/** A property's type in words: a component's name, an array of it, or its JSON type. */
function typeOf(schema: Record<string, unknown>): string {
  if (typeof schema.$ref === 'string') return `\`${schema.$ref.split('/').at(-1)}\``
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(' or ')
  if (schema.type === 'array' && schema.items) return `array of ${typeOf(schema.items as Record<string, unknown>)}`
  return Array.isArray(schema.type) ? (schema.type as string[]).join(' or ') : String(schema.type ?? 'object')
}

function section(type: EventType): string {
  const { properties, required } = EVENT_DATA[type]
  const rows = Object.entries(properties as Record<string, Record<string, unknown>>).map(
    ([name, schema]) =>
      `| \`${name}\` | ${typeOf(schema)} | ${required.includes(name) ? 'always' : 'when set'} | ${String(schema.description ?? '').replaceAll('|', '\\|')} |`,
  )
  const example = JSON.stringify(exampleData(type), null, 2)
  return `### \`${type}\`\n\n| field of \`data\` | type | present | meaning |\n|---|---|---|---|\n${rows.join('\n')}\n\n<details><summary>Example of <code>data</code></summary>\n\n\`\`\`json\n${example}\n\`\`\`\n\n</details>\n`
}

export function eventCatalogPage(): string {
  const groups = Object.entries(EVENT_TYPES).map(
    ([group, types]) => `## ${group[0]!.toUpperCase()}${group.slice(1)}\n\n${(types as readonly EventType[]).map(section).join('\n')}`,
  )
  return `# Event catalog\n\nEvery event type a webhook can subscribe to (\`events\`: a type, or a group such as \`ticket.*\`), and what its \`data\` holds. Every event is the envelope \`{id, type, created_at, organization_id, data}\` ([Webhooks](webhooks.md)); components such as \`Ticket\` are the API's own objects, as \`/openapi.json\` describes them. Generated from the code by \`bun scripts/event-catalog.ts\`.\n\n${groups.join('\n')}`
}

if (import.meta.main) {
  await Bun.write(EVENTS_PAGE, eventCatalogPage())
  process.stdout.write(`wrote ${EVENTS_PAGE}\n`)
}
