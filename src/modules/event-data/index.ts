// The event-data module's public entry: what `data` holds for every event type of the catalog (a schema
// per type) and its example, built from the components' examples that the modules export. /openapi.json
// documents both (src/http/openapi-webhooks.ts); a webhook's test send carries the example.
export { dataSchema, exampleData, exampleOf, testEventData } from './example.ts'
export { COMPONENT_EXAMPLES, type ComponentName } from './examples.ts'
export { EVENT_DATA, type EventData } from './schemas.ts'
