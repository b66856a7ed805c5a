// The dashboard renews its access token before it expires, on the real binary and the real clock with
// the shortest lifetime (ACCESS_TOKEN_TTL=60): at 80 % of it the page spends the refresh cookie, and
// past the first token's expiry the page still acts as the user (signing out answers 204, which an
// expired token could not).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ADMIN, CHROMIUM, type Dashboard, requireChromium, signIn, startDashboard } from '../../helpers/dashboard.ts'

requireChromium('renewal.test.ts')

describe.skipIf(!CHROMIUM)('access token renewal in the browser', () => {
  let dashboard: Dashboard
  beforeAll(async () => {
    dashboard = await startDashboard({ ACCESS_TOKEN_TTL: '60' })
  }, 180_000)
  afterAll(() => dashboard?.close())

  test('the token is renewed from the refresh cookie before it expires, and the renewed one is used', async () => {
    const page = await dashboard.open('/app/')
    await signIn(page, ADMIN.email)
    const signedInAt = Date.now()
    const renewed = await page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/refresh') && r.request().method() === 'POST', {
      timeout: 120_000,
    })
    expect(renewed.status()).toBe(200)
    // Past the first token's 60 s (and a little clock slack): only the renewed token can sign out.
    await Bun.sleep(Math.max(0, signedInAt + 65_000 - Date.now()))
    const logout = page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/logout'))
    await page.getByRole('button', { name: 'Sign out' }).click()
    expect((await logout).status()).toBe(204)
    await page.close()
    expect({ problems: dashboard.problems, refused: dashboard.refused }).toEqual({ problems: [], refused: [] })
  }, 180_000)
})
