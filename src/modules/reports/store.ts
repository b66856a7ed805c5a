// The reports module's SQL, in four parts: the event log and the fold's progress and state (store/log.ts),
// facts and totals (store/facts.ts), the streams read from their own tables (store/sources.ts), and the
// live figures (store/live.ts). Nothing else in the module writes SQL.
export * from './store/facts.ts'
export * from './store/live.ts'
export * from './store/log.ts'
export * from './store/sources.ts'
