// `switchboard version` (and `switchboard --version`): prints the version.
import { VERSION } from '../version.ts'
import { EXIT, type Command } from './command.ts'

/** What `switchboard version` and `switchboard --version` print. */
export function versionLine(): string {
  return `switchboard ${VERSION} (bun ${Bun.version})\n`
}

export const versionCommand: Command = {
  name: 'version',
  params: [],
  summary: 'Print the version and exit',
  async run({ io }) {
    io.stdout(versionLine())
    return EXIT.OK
  },
}
