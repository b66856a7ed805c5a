// The dashboard's pictures: every screen (a page under dashboard/src/pages) is photographed by
// `bun run dashboard:screenshots`, its picture is in docs/images/dashboard/ and docs/dashboard.md
// shows it, so a new screen without a picture fails here.
import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { SCREENSHOTS, SHOTS } from '../../../scripts/dashboard-screenshots.ts'
import { ROOT } from '../../helpers/root.ts'

const screens = readdirSync(join(ROOT, 'dashboard/src/pages'))
  .filter((name) => name.endsWith('.tsx'))
  .map((name) => basename(name, '.tsx'))

test.each(screens)('the %s screen is photographed, and docs/dashboard.md shows its picture', (screen) => {
  const shot = SCREENSHOTS.find((s) => s.file === `${screen}.png`)
  expect(shot?.path).toBe(`/${screen}`)
  expect(existsSync(join(SHOTS, `${screen}.png`))).toBe(true)
  expect(readFileSync(join(ROOT, 'docs/dashboard.md'), 'utf8')).toContain(`(images/dashboard/${screen}.png)`)
})

test('every picture the script takes is in docs/images/dashboard, and is a PNG', () => {
  for (const { file } of SCREENSHOTS) {
    const bytes = readFileSync(join(SHOTS, file))
    expect({ file, png: bytes.subarray(1, 4).toString() }).toEqual({ file, png: 'PNG' })
  }
})
