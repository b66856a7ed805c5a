// `switchboard version`: prints the version.
import { VERSION } from '../version.ts'
import { EXIT, type Command } from './command.ts'

export const versionCommand: Command = {
  name: 'version',
  params: [],
  summary: 'Print the version and exit',
  async run({ io }) {
    io.stdout(`switchboard ${VERSION} (bun ${Bun.version})\n`)
    return EXIT.OK
  },
}
