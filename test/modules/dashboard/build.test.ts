// dashboard/dist is what `bun run dashboard:build` makes of dashboard/src today: a change of the
// dashboard's source without a rebuild fails here (the server embeds dist, not the source).
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { buildDashboard } from '../../../scripts/build-dashboard.ts'

test('dashboard/dist is built from the current dashboard/src (bun run dashboard:build)', async () => {
  const built = await buildDashboard()
  for (const [name, text] of Object.entries(built)) {
    const committed = await Bun.file(join(import.meta.dir, '../../../dashboard/dist', name)).text()
    expect({ name, fresh: committed === text }).toEqual({ name, fresh: true })
  }
})
