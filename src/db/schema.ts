// Every drizzle table of the application, in one place: the entry drizzle-kit generates migrations from.
export { systemKv } from './kv.ts'
