// docs/events.md is what the event catalog and the event data schemas generate: a new type or field
// shows up in the docs, or this fails.
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { EVENTS_PAGE, eventCatalogPage } from '../scripts/event-catalog.ts'

test('docs/events.md matches the catalog (bun scripts/event-catalog.ts writes it)', () => {
  expect(readFileSync(EVENTS_PAGE, 'utf8')).toBe(eventCatalogPage())
})
