// The db_maintenance cron task on a real WAL database: the planner statistics refreshed plus a passive checkpoint.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openSqlite } from '../../src/db/sqlite.ts'
import { dbMaintenanceTask } from '../../src/jobs/tasks/db-maintenance.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { tempDir } from '../helpers/app.ts'

const dir = tempDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const runOnce = async (task: ReturnType<typeof dbMaintenanceTask>) =>
  (await task.run({
    now: Date.now(),
    log: createLogger({ level: 'error', sink: memorySink() }),
    signal: new AbortController().signal,
  })) as Record<string, unknown>

test('checkpoints the WAL into the database file and reports the frames', async () => {
  const db = openSqlite(join(dir, 'switchboard.db'))
  await db.raw.run('CREATE TABLE t (x TEXT)')
  for (let i = 0; i < 200; i++) await db.raw.run('INSERT INTO t VALUES (?)', ['x'.repeat(500)])
  const task = dbMaintenanceTask(db)
  expect(task).toMatchObject({ name: 'db_maintenance', intervalMs: 3_600_000 })
  const report = await runOnce(task)
  expect(report.worked).toBe(true)
  expect(report.busy).toBe(false)
  expect(report.wal_frames).toBeGreaterThan(0)
  expect(report.checkpointed_frames).toBe(report.wal_frames)
  // A fresh reader of the main file alone (no WAL) would now see every row.
  expect(await db.raw.get('SELECT count(*) AS n FROM t')).toEqual({ n: 200 })
  await db.close()
})

test('an in-memory database has no WAL: nothing to report, no error', async () => {
  const db = openSqlite(':memory:')
  expect(await runOnce(dbMaintenanceTask(db))).toEqual({ worked: false })
  await db.close()
})
