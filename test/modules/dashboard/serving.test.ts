// The dashboard as a browser meets it: `/` and `/app` lead to /app/, every path under /app/ is the page
// (its screens are routed in the browser), the page runs only its own files (CSP, no inline script or
// style, no framing), the files are named by their content and kept a year, gzipped on request, and
// the whole first load stays under 150 KB compressed.
import { afterAll, describe, expect, test } from 'bun:test'
import { makeTestApp } from '../../helpers/app.ts'

const app = await makeTestApp()
afterAll(() => app.close())

const pathsOf = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)

describe('the dashboard at /app/', () => {
  test('/ and /app redirect to /app/; /app/ and any screen under it answer the page', async () => {
    for (const path of ['/', '/app']) {
      const reply = await app.request(path)
      expect({ path, status: reply.status, location: reply.headers.get('location') }).toEqual({ path, status: 302, location: '/app/' })
    }
    const page = await (await app.request('/app/')).text()
    for (const path of ['/app/settings/api-keys', '/app/webhooks/whk_1/deliveries']) {
      const reply = await app.request(path)
      expect({ path, status: reply.status, same: (await reply.text()) === page }).toEqual({ path, status: 200, same: true })
    }
  })

  test('the page may run only its own script and stylesheet, and may not be framed', async () => {
    const reply = await app.request('/app/')
    const policy = Object.fromEntries(
      (reply.headers.get('content-security-policy') ?? '').split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/)
        return [name!, values.join(' ')]
      }),
    )
    expect(policy).toMatchObject({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self'",
      'connect-src': "'self'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
    })
    expect(reply.headers.get('x-frame-options')).toBe('DENY')
    expect(reply.headers.get('cache-control')).toBe('no-cache')
    const html = await reply.text()
    // Every script has a src on this server; no inline script, handler or style; nothing from another host.
    expect(html.match(/<script\b[^>]*>/g)!.every((tag) => /\ssrc="\/app\/assets\//.test(tag))).toBe(true)
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=|https?:\/\//i)
  })

  test('its files are named by their content, kept for a year, gzipped when asked, and unknown names are 404', async () => {
    const paths = pathsOf(await (await app.request('/app/')).text()).filter((p) => p.startsWith('/app/assets/'))
    expect(paths.map((p) => p.replace(/-[0-9a-f]{16}\./, '-HASH.')).sort()).toEqual(['/app/assets/app-HASH.css', '/app/assets/app-HASH.js'])
    for (const path of paths) {
      const plain = await app.request(path)
      expect(plain.status).toBe(200)
      expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const body = new Uint8Array(await plain.arrayBuffer())
      const zipped = await app.request(path, { headers: { 'accept-encoding': 'gzip, br' } })
      expect(zipped.headers.get('content-encoding')).toBe('gzip')
      expect(Bun.gunzipSync(new Uint8Array(await zipped.arrayBuffer()))).toEqual(body)
    }
    const stale = await app.request(paths[0]!.replace(/-[0-9a-f]{16}\./, '-0000000000000000.'))
    expect(stale.status).toBe(404)
    expect(((await stale.json()) as { code: string }).code).toBe('NOT_FOUND')
  })

  test('the whole first load is under 150 KB compressed', async () => {
    const page = await (await app.request('/app/')).text()
    let total = Bun.gzipSync(new TextEncoder().encode(page)).length
    for (const path of pathsOf(page).filter((p) => p.startsWith('/app/'))) {
      const reply = await app.request(path, { headers: { 'accept-encoding': 'gzip' } })
      total += (await reply.arrayBuffer()).byteLength
    }
    expect(total).toBeLessThan(150 * 1024)
  })
})
