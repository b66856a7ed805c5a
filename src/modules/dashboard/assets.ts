// The dashboard's files, embedded in the binary at build time (`type: 'file'`; from source, read from
// dashboard/dist), each at a URL named by its content hash, so a browser may keep it for a year.
import styles from '../../../dashboard/dist/app.css' with { type: 'file' }
import script from '../../../dashboard/dist/app.js' with { type: 'file' }
import template from '../../../dashboard/dist/page.html.txt' with { type: 'text' }

export const DASHBOARD_PATH = '/app'

export interface Asset {
  readonly path: string
  readonly type: string
  readonly body: Uint8Array<ArrayBuffer>
  /** Made on the first request that accepts gzip. */
  gzipped?: Uint8Array<ArrayBuffer>
}

export interface DashboardFiles {
  readonly page: string
  /** URL path -> asset. */
  readonly assets: ReadonlyMap<string, Asset>
}

async function assetOf(file: string, name: string, extension: string, type: string): Promise<Asset> {
  const body = new Uint8Array(await Bun.file(file).arrayBuffer())
  const hash = new Bun.CryptoHasher('sha256').update(body).digest('hex').slice(0, 16)
  return { path: `${DASHBOARD_PATH}/assets/${name}-${hash}.${extension}`, type, body }
}

export async function loadDashboardFiles(): Promise<DashboardFiles> {
  const js = await assetOf(script, 'app', 'js', 'text/javascript; charset=utf-8')
  const css = await assetOf(styles, 'app', 'css', 'text/css; charset=utf-8')
  const page = template.replace('%SCRIPT%', js.path).replace('%STYLES%', css.path)
  return { page, assets: new Map([js, css].map((asset) => [asset.path, asset])) }
}
