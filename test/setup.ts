// Preloaded by bun test (bunfig.toml): a fixed time zone, so nothing depends on the machine's, and the
// removal of the folders made once per run (an afterAll here runs once, after every file).
import { afterAll } from 'bun:test'
import { removeAll } from './helpers/cleanup.ts'

process.env.TZ = 'UTC'
afterAll(removeAll)
