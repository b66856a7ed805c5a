// `switchboard keys rotate`: adds a signing key, published at once, signing after KEY_ACTIVATION_DELAY.
// Safe while a server runs on the same DATA_DIR: the server picks the key up from the database.
import { createLogger, fileSink } from '../lib/log.ts'
import { openKeyring } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'

export const keysRotateCommand: Command = {
  name: 'keys rotate',
  params: [],
  summary: 'Add a signing key: published now, signs after KEY_ACTIVATION_DELAY; prints its kid as JSON',
  async run({ config, io }) {
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    const { database, keyring } = await openKeyring(config, log, undefined, { reportSlowWrites: false })
    try {
      io.stdout(JSON.stringify(await keyring.rotate(config.keyActivationDelayS)) + '\n')
      return EXIT.OK
    } finally {
      await database.close()
      log.flush()
    }
  },
}
