// The db_maintenance cron task on a real WAL database: PRAGMA optimize plus a passive checkpoint.
import { afterAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/open.ts'
import { dbMaintenanceTask } from '../../src/jobs/tasks/db-maintenance.ts'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { tempDir } from '../helpers/app.ts'

const dir = tempDir()
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('checkpoints the WAL into the database file and reports the frames', async () => {
  const { sqlite } = openDatabase(join(dir, 'switchboard.db'))
  sqlite.run('CREATE TABLE t (x TEXT)')
  const insert = sqlite.query('INSERT INTO t VALUES (?)')
  for (let i = 0; i < 200; i++) insert.run('x'.repeat(500))
  const task = dbMaintenanceTask(sqlite)
  expect(task).toMatchObject({ name: 'db_maintenance', intervalMs: 3_600_000 })
  const report = (await task.run({ now: Date.now(), log: createLogger({ level: 'error', sink: memorySink() }), signal: new AbortController().signal })) as Record<string, unknown>
  expect(report.busy).toBe(false)
  expect(report.wal_frames).toBeGreaterThan(0)
  expect(report.checkpointed_frames).toBe(report.wal_frames)
  // A fresh reader of the main file alone (no WAL) would now see every row.
  expect(sqlite.query('SELECT count(*) AS n FROM t').get()).toEqual({ n: 200 })
  sqlite.close()
})
