// The layering rules of biome.json, checked on probe files laid out as the source tree is: each rule
// refuses what it should and lets the allowed imports through (a rule that matches nothing would pass
// `bun run lint` forever without this).
import { afterAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ROOT } from './helpers/root.ts'

const dir = mkdtempSync(join(tmpdir(), 'switchboard-lint-'))
copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'))
symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Lints one probe file (its import used, so only the rule under test can speak); the messages it got. */
function lint(path: string, specifier: string): string {
  const file = join(dir, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, `import { probe } from '${specifier}'\n\nexport const used = probe\n`)
  const result = Bun.spawnSync([join(ROOT, 'node_modules/.bin/biome'), 'lint', '--colors=off', path], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
  })
  rmSync(file)
  return result.exitCode === 0 ? '' : result.stdout.toString() + result.stderr.toString()
}

describe('refused', () => {
  const cases: Array<[string, string, string]> = [
    ['src/modules/tickets/create-ticket.ts', '../users/store.ts', 'only through its public entry'],
    ['src/modules/webhooks/store/dispatch.ts', '../../events/record-change.ts', 'only through its public entry'],
    ['src/modules/tickets/store.ts', 'elysia', 'never import elysia'],
    ['src/modules/webhooks/store/dispatch.ts', 'elysia', 'never import elysia'],
    ['src/modules/tickets/create-ticket.ts', '../../http/auth.ts', 'never import elysia or src/http'],
    ['src/modules/tickets/store.ts', 'bun:sqlite', 'only src/db/sqlite.ts talks to bun:sqlite'],
    ['src/http/auth.ts', 'drizzle-orm', 'drizzle is not used'],
    ['src/lib/cidr.ts', '../errors.ts', 'src/lib imports nothing of ours'],
    ['src/db/list.ts', '../modules/tickets/index.ts', 'src/db imports no module'],
    ['src/context.ts', './modules/access/permissions.ts', 'only through its public entry'],
    ['src/jobs/registry.ts', '../modules/tickets/jobs.ts', 'only through its public entry'],
    ['src/modules/tickets/index.ts', '../../app.ts', 'never import the composition root'],
    ['src/modules/oauth/token/issue.ts', 'elysia', 'never import elysia'],
    ['src/modules/oauth/token/routes.ts', '../../users/store.ts', 'only through its public entry'],
    ['src/modules/uploads/routes.ts', './settings.ts', 'read only by src/config.ts'],
    ['src/modules/uploads/receive-upload.ts', './settings.ts', 'read only by src/config.ts'],
    ['src/modules/billing/payments/provider.ts', '../settings.ts', 'read only by src/config.ts'],
    ['src/modules/billing/stripe/routes.ts', '../settings.ts', 'read only by src/config.ts'],
    ['src/modules/tickets/jobs.ts', '../uploads/settings.ts', 'only through its public entry'],
    ['src/runtime.ts', './modules/uploads/settings.ts', 'only through its public entry'],
    ['src/runtime.ts', './settings/server.ts', 'read only by src/config.ts'],
    ['src/cli/serve.ts', '../settings/server.ts', 'read only by src/config.ts'],
    ['src/http/platform.ts', '../settings/server.ts', 'read only by src/config.ts'],
    ['src/context.ts', './settings/startup.ts', 'read only by src/config.ts'],
    ['src/modules/tickets/jobs.ts', '../../settings/startup.ts', 'read only by src/config.ts'],
    ['src/modules/uploads/settings.ts', './storage/index.ts', 'imports nothing of ours but src/lib'],
    ['src/modules/uploads/settings.ts', '../../config.ts', 'imports nothing of ours but src/lib'],
    ['src/modules/uploads/settings.ts', './store.ts', 'imports nothing of ours but src/lib'],
    ['src/modules/uploads/settings.ts', '../tickets/index.ts', 'imports nothing of ours but src/lib'],
    ['src/modules/uploads/settings.ts', 'elysia', 'imports nothing of ours but src/lib'],
    ['src/settings/server.ts', '../config.ts', 'imports nothing of ours but src/lib'],
    ['src/settings/server.ts', '../modules/uploads/settings.ts', 'imports nothing of ours but src/lib'],
    ['src/config.ts', './modules/uploads/index.ts', "imports only the modules' settings.ts"],
    ['src/config.ts', './modules/uploads/storage/index.ts', "imports only the modules' settings.ts"],
    ['src/config.ts', './context.ts', 'never the layers that read the Config'],
  ]
  for (const [path, specifier, message] of cases) {
    test(`${specifier} in ${path}`, () => expect(lint(path, specifier)).toContain(message))
  }
})

describe('allowed', () => {
  const cases: Array<[string, string]> = [
    ['src/modules/tickets/create-ticket.ts', '../users/index.ts'],
    ['src/modules/tickets/create-ticket.ts', './store.ts'],
    ['src/modules/tickets/create-ticket.ts', '../../db/list.ts'],
    ['src/modules/webhooks/store/dispatch.ts', '../table.ts'],
    ['src/modules/webhooks/store/dispatch.ts', '../../../db/database.ts'],
    ['src/modules/tickets/index.ts', 'elysia'],
    ['src/db/sqlite.ts', 'bun:sqlite'],
    ['src/http/auth.ts', '../modules/access/index.ts'],
    ['src/modules/oauth/token/routes.ts', 'elysia'],
    ['src/modules/oauth/grants/model.ts', '../../../http/list.ts'],
    ['src/config.ts', './modules/uploads/settings.ts'],
    ['src/config.ts', './settings/server.ts'],
    ['src/config.ts', './lib/settings.ts'],
    ['src/modules/uploads/settings.ts', '../../lib/settings.ts'],
    ['src/modules/uploads/settings.ts', '@sinclair/typebox'],
    ['src/settings/startup.ts', '../lib/settings.ts'],
    ['src/modules/billing/accounts/routes.ts', './settings.ts'],
    ['src/modules/billing/subscriptions/fields.ts', '../accounts/settings.ts'],
    ['src/runtime.ts', './config.ts'],
  ]
  for (const [path, specifier] of cases) {
    test(`${specifier} in ${path}`, () => expect(lint(path, specifier)).toBe(''))
  }
})
