// `switchboard user create --org ORG_ID --email E --password P --role ROLE [--name N]`: a new user,
// printed as JSON.
import { isEmailAddress } from '../lib/email.ts'
import { createLogger, fileSink } from '../lib/log.ts'
import { isRole, ROLES } from '../modules/access/permissions.ts'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../modules/auth/password.ts'
import { findOrganization } from '../modules/organizations/service.ts'
import { createUser } from '../modules/users/create-user.ts'
import { userJson } from '../modules/users/get-user.ts'
import { openMigratedDatabase } from '../runtime.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'

export const userCreateCommand: Command = {
  name: 'user create',
  params: [],
  summary: `Create a user (--org ORG_ID --email E --password P --role ${ROLES.join('|')} [--name N]); prints it as JSON`,
  options: { org: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' } },
  async run({ config, options, io }) {
    const { org, email, password, role } = options as Record<string, string | undefined>
    if (!org || !email || !password || !role) return usage(io, 'user create needs --org, --email, --password and --role')
    if (!isEmailAddress(email)) return usage(io, `--email is not an e-mail address: ${email}`)
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return usage(io, `--password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`)
    if (!isRole(role)) return usage(io, `--role must be one of: ${ROLES.join(', ')}`)
    const name = (typeof options.name === 'string' && options.name.trim()) || email.split('@')[0]!
    const log = createLogger({ level: config.logLevel, sink: fileSink(Bun.stderr) })
    const { sqlite, database, db } = await openMigratedDatabase(config, log, Date.now())
    try {
      if (!findOrganization(db, org)) {
        io.stderr(`switchboard: no organization ${org}\n`)
        return EXIT.FAILED
      }
      const user = await createUser(db, { organizationId: org, email, name, password, role }, Date.now)
      io.stdout(JSON.stringify(userJson(user)) + '\n')
      return EXIT.OK
    } finally {
      await database.close()
      log.flush()
    }
  },
}
