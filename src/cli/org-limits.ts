// `switchboard org set-plan ORG_ID PLAN` and `org set-limits ORG_ID --per-minute N --per-day N`
// (or `--clear`): an organization's plan and request rates. Both print the result as JSON; a running
// server applies them on the organization's next request. set-plan sets the plan directly: an
// organization with a subscription has its plan set again by the subscription's next change.
import { PLANS } from '../modules/organizations/index.ts'
import { changePlan, changeRates, MAX_PER_DAY, MAX_PER_MINUTE } from '../modules/rate-limits/index.ts'
import { EXIT, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const orgSetPlanCommand: Command = {
  name: 'org set-plan',
  params: ['<org_id>', '<plan>'],
  summary: `Change an organization's plan (${PLANS.join('|')}); its request rates follow at once (a subscription's next change sets it again)`,
  async run({ config, args, io }) {
    const [id, plan] = args as [string, string]
    if (!(PLANS as readonly string[]).includes(plan)) return usage(io, `the plan must be one of: ${PLANS.join(', ')}`)
    return withDatabase(config, async (ctx) => {
      const changed = await changePlan(ctx, { organizationId: id, plan })
      if (!changed) return noSuchOrganization(io, id)
      const { before, after } = changed
      if (plan !== 'enterprise' && (before.rate_limit_per_minute !== null || before.rate_limit_per_day !== null)) {
        io.stderr(`switchboard: the rates set by org set-limits were dropped; the ${plan} plan's apply\n`)
      }
      if (plan === 'enterprise' && after.rate_limit_per_minute === null && after.rate_limit_per_day === null) {
        const { per_minute, per_day } = after.effective
        io.stderr(
          `switchboard: the organization has no rates of its own; set them with org set-limits (until then it gets the enterprise plan's: ${per_minute} a minute, ${per_day} a day)\n`,
        )
      }
      io.stdout(JSON.stringify(after) + '\n')
      return EXIT.OK
    })
  },
}

/** A positive whole number up to `max`, or undefined when the text is not one. */
function count(text: unknown, max: number): number | undefined {
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 && n <= max ? n : undefined
}

export const orgSetLimitsCommand: Command = {
  name: 'org set-limits',
  params: ['<org_id>'],
  summary: "Set an organization's own request rates per user (--per-minute N, --per-day N), or --clear to return to its plan's",
  options: { 'per-minute': { type: 'string' }, 'per-day': { type: 'string' }, clear: { type: 'boolean' } },
  async run({ config, args, options, io }) {
    const id = args[0]!
    const clear = options.clear === true
    const given = { perMinute: options['per-minute'], perDay: options['per-day'] }
    if (clear && (given.perMinute !== undefined || given.perDay !== undefined))
      return usage(io, 'org set-limits takes --clear or values, not both')
    if (!clear && given.perMinute === undefined && given.perDay === undefined)
      return usage(io, 'org set-limits needs --per-minute N, --per-day N or --clear')
    const perMinute = given.perMinute === undefined ? undefined : count(given.perMinute, MAX_PER_MINUTE)
    const perDay = given.perDay === undefined ? undefined : count(given.perDay, MAX_PER_DAY)
    if (given.perMinute !== undefined && perMinute === undefined)
      return usage(io, `--per-minute must be a whole number from 1 to ${MAX_PER_MINUTE}`)
    if (given.perDay !== undefined && perDay === undefined) return usage(io, `--per-day must be a whole number from 1 to ${MAX_PER_DAY}`)
    return withDatabase(config, async (ctx) => {
      const input = clear ? { perMinute: null, perDay: null } : { perMinute, perDay }
      const after = await changeRates(ctx, { organizationId: id, ...input })
      if (!after) return noSuchOrganization(io, id)
      io.stdout(JSON.stringify(after) + '\n')
      return EXIT.OK
    })
  },
}
