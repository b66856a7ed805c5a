// The API reference at /docs: Scalar's reference UI served from the binary itself, so an install
// without internet access still shows it. The page reads the document from /openapi.json.
import { Elysia } from 'elysia'
// The package's exports map does not publish its browser bundle, hence the path. `type: 'file'` makes
// `bun build --compile` embed the file; the import is its path (inside the binary's $bunfs once compiled).
import scalarBundle from '../../node_modules/@scalar/api-reference/dist/browser/standalone.js' with { type: 'file' }
import scalarPackage from '../../node_modules/@scalar/api-reference/package.json' with { type: 'json' }
import type { Config } from '../config.ts'

export const DOCS_PATH = '/docs'
/** Versioned, so a browser may keep it for a year: an upgrade of the package changes the URL. */
export const SCALAR_ASSET_PATH = `${DOCS_PATH}/assets/scalar-${scalarPackage.version}.js`

// Scalar's options: no web fonts (it would fetch them from fonts.scalar.com), no telemetry, and none
// of the features that talk to Scalar's services (AI agent, MCP, developer tools, the hosted client).
const SCALAR_OPTIONS = {
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
}

/** Only our own script runs; Scalar injects its styles inline. "Try it" calls this server or PUBLIC_URL. */
function contentSecurityPolicy(publicUrl: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The page; absolute URLs, so /docs/ works like /docs. */
function page(openapiPath: string): string {
  const configuration = escapeAttribute(JSON.stringify({ url: openapiPath, ...SCALAR_OPTIONS }))
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Switchboard API reference</title>
  </head>
  <body>
    <script id="api-reference" type="application/json" data-configuration="${configuration}"></script>
    <script src="${SCALAR_ASSET_PATH}"></script>
  </body>
</html>
`
}

// The bundle is 4.3 MB and compresses to 1.3 MB: gzipped once, on the first request that accepts it.
let gzipped: Uint8Array | undefined
async function gzippedBundle(): Promise<Uint8Array> {
  gzipped ??= Bun.gzipSync(await Bun.file(scalarBundle).bytes())
  return gzipped
}

export function docsPage(config: Config, openapiPath: string) {
  const html = page(openapiPath)
  const pageHeaders = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(config.publicUrl),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
  const assetHeaders = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
  }
  return new Elysia()
    .get(DOCS_PATH, () => new Response(html, { headers: pageHeaders }), { detail: { hide: true } })
    .get(
      SCALAR_ASSET_PATH,
      async ({ request }) => {
        if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
          return new Response(await gzippedBundle(), { headers: { ...assetHeaders, 'content-encoding': 'gzip' } })
        }
        return new Response(Bun.file(scalarBundle), { headers: assetHeaders })
      },
      { detail: { hide: true } },
    )
}
