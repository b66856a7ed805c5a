// The dashboard at /app/: a web console served by the binary, a client of the public API only (README.md).
// `/` redirects there; every other path under /app/ is the page (its screens are routed in the browser).
import { Elysia } from 'elysia'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../errors.ts'
import { type Asset, DASHBOARD_PATH, loadDashboardFiles } from './assets.ts'
import { assetHeaders, pageHeaders } from './headers.ts'

export { DASHBOARD_PATH } from './assets.ts'

function assetResponse(asset: Asset, acceptEncoding: string | null): Response {
  if (acceptEncoding && /\bgzip\b/.test(acceptEncoding)) {
    asset.gzipped ??= Bun.gzipSync(asset.body)
    return new Response(asset.gzipped, { headers: { ...assetHeaders(asset.type), 'content-encoding': 'gzip', vary: 'accept-encoding' } })
  }
  return new Response(asset.body, { headers: { ...assetHeaders(asset.type), vary: 'accept-encoding' } })
}

export function dashboardRoutes(_context: AppContext) {
  let files: ReturnType<typeof loadDashboardFiles> | undefined
  const load = () => (files ??= loadDashboardFiles())
  const page = async () => new Response((await load()).page, { headers: pageHeaders() })
  const redirect = () => new Response(null, { status: 302, headers: { location: `${DASHBOARD_PATH}/` } })
  return (
    new Elysia({ name: 'dashboard' })
      .get('/', redirect, { detail: { hide: true } })
      // One route for /app and /app/ (the router does not tell them apart): the page is at /app/.
      .get(DASHBOARD_PATH, ({ request }) => (new URL(request.url).pathname.endsWith('/') ? page() : redirect()), { detail: { hide: true } })
      .get(
        `${DASHBOARD_PATH}/*`,
        async ({ request, params }) => {
          const path = `${DASHBOARD_PATH}/${params['*']}`
          if (!path.startsWith(`${DASHBOARD_PATH}/assets/`)) return page()
          const asset = (await load()).assets.get(path)
          if (!asset) throw new AppError('NOT_FOUND', 'No such dashboard file (its name changes with every version)')
          return assetResponse(asset, request.headers.get('accept-encoding'))
        },
        { detail: { hide: true } },
      )
  )
}
