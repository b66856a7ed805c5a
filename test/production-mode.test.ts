// Issue 27 item 1: the served product never runs Elysia in development mode, where every rejected value is
// pretty-printed into its validation error. Elysia reads NODE_ENV once, when it loads; src/production-mode.ts
// sets it, and the entry point loads it before anything else.
import { expect, test } from 'bun:test'
import { ROOT } from './helpers/root.ts'

test('the entry point imports production mode first, before anything that loads Elysia', async () => {
  const source = await Bun.file(`${ROOT}/src/main.ts`).text()
  expect(source.match(/^import .*$/m)?.[0]).toBe("import './production-mode.ts'")
})

test('after it, Elysia is in production mode even when NODE_ENV says development', async () => {
  const script =
    "await import('./src/production-mode.ts'); const { isProduction } = await import('elysia/error'); process.stdout.write(String(isProduction))"
  const child = Bun.spawn([process.execPath, '--no-env-file', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development' },
    stdout: 'pipe',
  })
  expect(await new Response(child.stdout).text()).toBe('true')
  expect(await child.exited).toBe(0)
})
