// `serve` on PostgreSQL: alone without Redis, or among peers that all have it — a mix is refused at
// start with a line saying why; and instances with Redis but no PUBLIC_URL are warned that their tokens
// will not cross (each would name its own http://localhost:PORT).
import { afterAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { tempDir } from '../helpers/app.ts'
import { clusterSettings } from '../helpers/engine.ts'
import { freePort, run, sourceCommand, startServer } from '../helpers/process.ts'
import { postgresAvailable, redisAvailable } from '../helpers/services.ts'
import { rmSync } from 'node:fs'

const folder = tempDir('switchboard-serve-instances-')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe.skipIf(!postgresAvailable || !redisAvailable)('serve on PostgreSQL', () => {
  test('an instance with REDIS_URL is refused beside one running alone without it', async () => {
    const settings = await clusterSettings()
    const { REDIS_URL, ...alone } = settings
    const first = await startServer(sourceCommand('serve'), { ...alone, DATA_DIR: join(folder, 'alone') })
    try {
      const second = await run(sourceCommand('serve'), { ...settings, DATA_DIR: join(folder, 'peer'), PORT: String(freePort()) })
      expect(second.code).toBe(1)
      expect(second.stderr).toContain('an instance without REDIS_URL is running on this PostgreSQL database')
    } finally {
      await first.stop()
    }
  })

  test('several instances without PUBLIC_URL are warned at start', async () => {
    const settings = await clusterSettings()
    const server = await startServer(sourceCommand('serve'), { ...settings, DATA_DIR: join(folder, 'warned') })
    const { code, stdout } = await server.stop()
    expect(code).toBe(0)
    expect(stdout).toContain('several instances (REDIS_URL) without PUBLIC_URL')
    const named = await startServer(sourceCommand('serve'), {
      ...settings,
      PUBLIC_URL: 'https://api.example.test',
      DATA_DIR: join(folder, 'named'),
    })
    expect((await named.stop()).stdout).not.toContain('without PUBLIC_URL')
  })
})
