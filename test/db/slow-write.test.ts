// The app's database reports a write transaction that holds the one writer too long, by name, in the
// server log; a quick one, a migration (nobody waits for it: nothing is served yet), and the checkpoint
// at close, say nothing; nor does a CLI command's slow write (nothing else waits for its process's writer).
import { afterAll, expect, test } from 'bun:test'
import { createLogger, memorySink } from '../../src/lib/log.ts'
import { openCommandContext } from '../../src/runtime.ts'
import { makeTestApp } from '../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())

test('a transaction holding the writer past 50 ms is a warning naming it and the time held', async () => {
  await app.context.db.write('test.quick', async (tx) => {
    await tx.raw.run("UPDATE system_kv SET value = value WHERE key = 'page_token_key'")
  })
  await app.context.db.write('ticket.import', async (tx) => {
    await tx.raw.run("UPDATE system_kv SET value = value WHERE key = 'page_token_key'")
    await Bun.sleep(80)
  })
  // Only the slow one is looked at: on a loaded machine the quick one may pass 50 ms too (the warning is about time held).
  const warnings = app.logs
    .records()
    .filter((r) => r.msg === 'write transaction held the database writer too long' && r.transaction === 'ticket.import')
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).toMatchObject({ level: 'warn', transaction: 'ticket.import' })
  expect(warnings[0]!.held_ms as number).toBeGreaterThanOrEqual(70)
})

test('a migration holding the writer as long says nothing: a CLI command on a loaded machine keeps a clean stderr', async () => {
  const before = app.logs.records().length
  await app.context.db.write('migration 9999_test', async (tx) => {
    await tx.raw.run("UPDATE system_kv SET value = value WHERE key = 'page_token_key'")
    await Bun.sleep(80)
  })
  expect(
    app.logs
      .records()
      .slice(before)
      .filter((r) => r.msg === 'write transaction held the database writer too long'),
  ).toEqual([])
})

test("a CLI command's slow write says nothing: no other write waits for its process's writer", async () => {
  const logs = memorySink()
  const command = await openCommandContext(app.config, createLogger({ level: 'debug', sink: logs }))
  try {
    await command.app.db.write('organization.change_rates', async (tx) => {
      await tx.raw.run("UPDATE system_kv SET value = value WHERE key = 'page_token_key'")
      await Bun.sleep(80)
    })
  } finally {
    await command.close()
  }
  expect(logs.records().filter((r) => r.msg === 'write transaction held the database writer too long')).toEqual([])
})
