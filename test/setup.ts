// Preloaded by bun test (bunfig.toml): a fixed time zone, so nothing depends on the machine's, the
// throwaway servers of the PostgreSQL + Redis run, and the removal of the folders made once per run
// (a beforeAll or afterAll here runs once, before or after every file).
// First, as in src/main.ts: Elysia in production mode, as the served product runs it.
import '../src/production-mode.ts'
import { afterAll, beforeAll } from 'bun:test'
import { removeAll } from './helpers/cleanup.ts'
import { postgresServer, redisServer, TEST_ENGINE } from './helpers/engine.ts'

process.env.TZ = 'UTC'
// On PostgreSQL + Redis, both servers start here, before any test: one started lazily inside a test
// would be killed with that test if it timed out, and every later test would find it gone.
beforeAll(async () => {
  if (TEST_ENGINE === 'postgres') await Promise.all([postgresServer(), redisServer()])
}, 60_000)
// Stopping the throwaway PostgreSQL, Redis and S3 servers of a whole run (their folders are removed in the
// background) and removing the run's folders can take longer than a hook's default 5 s on a busy machine.
afterAll(removeAll, 30_000)
