// `switchboard healthcheck`: exits 0 when the server on the configured local port answers /health
// with 200, else 1. Used by the container HEALTHCHECK, where no curl exists.
import { EXIT, type Command } from './command.ts'

export const healthcheckCommand: Command = {
  name: 'healthcheck',
  params: [],
  summary: 'Exit 0 if the local server answers GET /health with 200, else 1',
  async run({ config, io }) {
    const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '[::1]' : config.host.includes(':') ? `[${config.host}]` : config.host
    const url = `http://${host}:${config.port}/health`
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
