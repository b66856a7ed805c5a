// `switchboard org webhook-cidrs ORG_ID [--set CIDRS | --clear]`: the internal ranges one organization's
// webhooks may reach although they are not public. Prints the list in force as JSON; a running server
// applies a change at its next registration and its next claim of deliveries.
import { findOrganization } from '../modules/organizations/index.ts'
import { changeAllowedCidrs, parseAllowedCidrs, readAllowedCidrs } from '../modules/webhooks/index.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const orgWebhookCidrsCommand: Command = {
  name: 'org webhook-cidrs',
  params: ['<org_id>'],
  summary: "Show, --set A,B or --clear the non-public ranges (e.g. 10.0.0.0/8) an organization's webhooks may reach",
  options: { set: { type: 'string' }, clear: { type: 'boolean' } },
  async run({ config, args, options, io }) {
    const id = args[0]!
    const clear = options.clear === true
    const set = options.set
    if (clear && set !== undefined) return usage(io, 'org webhook-cidrs takes --set or --clear, not both')
    let parsed: ReturnType<typeof parseAllowedCidrs> | undefined
    if (typeof set === 'string') {
      parsed = parseAllowedCidrs(set)
      if ('problem' in parsed) return usage(io, `--set ${parsed.problem}`)
    }
    return withDatabase(config, async (ctx) => {
      if (!(await findOrganization(ctx.db, id))) return noSuchOrganization(io, id)
      const cidrs = parsed && 'cidrs' in parsed ? parsed.cidrs : clear ? [] : undefined
      const list = cidrs === undefined ? await readAllowedCidrs(ctx.db, id) : await changeAllowedCidrs(ctx, { organizationId: id, cidrs })
      io.stdout(JSON.stringify({ organization_id: id, webhook_allowed_cidrs: list }) + '\n')
      return EXIT.OK
    })
  },
}
