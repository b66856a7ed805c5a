// `switchboard healthcheck`: exits 0 when the local server answers /health with 200, else 1. Used by
// the container HEALTHCHECK, where no curl exists. The address is the one the running server wrote
// to DATA_DIR/serve.json (so `serve --port 9000` is found whatever PORT says), else HOST:PORT.
import { EXIT, type Command } from './command.ts'
import { readRunningServer } from './running-server.ts'

export const healthcheckCommand: Command = {
  name: 'healthcheck',
  params: [],
  summary: 'Exit 0 if the local server answers GET /health with 200, else 1 (finds its port in DATA_DIR/serve.json)',
  async run({ config, io }) {
    const running = readRunningServer(config.dataDir)
    const url = `http://${loopbackFor(running?.host ?? config.host)}:${running?.port ?? config.port}/health`
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
      if (response.status === 200) return EXIT.OK
      io.stderr(`switchboard: healthcheck: ${url} answered ${response.status}\n`)
    } catch (error) {
      io.stderr(`switchboard: healthcheck: ${url}: ${(error as Error).message}\n`)
    }
    return EXIT.FAILED
  },
}

/** A wildcard bind is reached on loopback; an IPv6 literal needs brackets in a URL. */
function loopbackFor(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}
