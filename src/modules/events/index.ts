// The events module's public entry: the catalog of event types and recordChange (event + audit +
// subscribers in one transaction).
export { EVENT_TYPES, type EventType, isEventType } from './catalog.ts'
export { type ActorKind, actorKindOf, type Change, MAX_EVENT_DATA_BYTES, recordChange, recordEvent } from './record-change.ts'
