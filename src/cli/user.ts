// `switchboard user create --org ORG_ID --email E --password P --role ROLE [--name N]`: a new user,
// printed as JSON.
import { isEmailAddress } from '../lib/email.ts'
import { isRole, ROLES } from '../modules/access/index.ts'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../modules/auth/index.ts'
import { findOrganization } from '../modules/organizations/index.ts'
import { createUser, userJson } from '../modules/users/index.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const userCreateCommand: Command = {
  name: 'user create',
  params: [],
  summary: `Create a user (--org ORG_ID --email E --password P --role ${ROLES.join('|')} [--name N]); prints it as JSON`,
  options: {
    org: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    role: { type: 'string' },
    name: { type: 'string' },
  },
  async run({ config, options, io }) {
    const { org, email, password, role } = options as Record<string, string | undefined>
    if (!org || !email || !password || !role) return usage(io, 'user create needs --org, --email, --password and --role')
    if (!isEmailAddress(email)) return usage(io, `--email is not an e-mail address: ${email}`)
    if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH)
      return usage(io, `--password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`)
    if (!isRole(role)) return usage(io, `--role must be one of: ${ROLES.join(', ')}`)
    const name = (typeof options.name === 'string' && options.name.trim()) || email.split('@')[0]!
    return withDatabase(config, async (ctx) => {
      if (!(await findOrganization(ctx.db, org))) return noSuchOrganization(io, org)
      const user = await createUser(ctx, { organizationId: org, email, name, password, role })
      io.stdout(JSON.stringify(userJson(user)) + '\n')
      return EXIT.OK
    })
  },
}
