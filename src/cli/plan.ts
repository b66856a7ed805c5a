// `switchboard plan list` and `plan set PLAN [--name TEXT] [--per-minute N] [--per-day N] [--price
// CUR:INTERVAL:AMOUNT …] [--org ORG_ID]`: the plans, their request rates and prices, as the operator API
// sets them. Both print JSON; a running server applies new rates on each organization's next request.
import { AppError } from '../errors.ts'
import { getPlan, listPlans, parsePrice, plansJson, setOrganizationPrices, updatePlan } from '../modules/billing/index.ts'
import { PLANS as PLAN_IDS } from '../modules/organizations/index.ts'
import { MAX_PER_DAY, MAX_PER_MINUTE } from '../modules/rate-limits/index.ts'
import { EXIT, type CliIo, type Command } from './command.ts'
import { usage } from './org.ts'
import { noSuchOrganization, withDatabase } from './with-database.ts'

export const planListCommand: Command = {
  name: 'plan list',
  params: [],
  summary: "Print the plans with their request rates and active prices (public and each organization's) as JSON",
  async run({ config, io }) {
    return withDatabase(config, async (ctx) => {
      const { plans, prices } = await listPlans(ctx)
      io.stdout(JSON.stringify({ plans: plansJson(plans, prices) }) + '\n')
      return EXIT.OK
    })
  },
}

/** A whole number from 1 to `max`, or undefined when the text is not one. */
function count(text: string, max: number): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 && n <= max ? n : undefined
}

export const planSetCommand: Command = {
  name: 'plan set',
  params: ['<plan>'],
  summary:
    "Change a plan (--name TEXT, --per-minute N, --per-day N, --price CUR:INTERVAL:AMOUNT…; with --org ORG_ID an organization's own Enterprise prices); prints it as JSON",
  options: {
    name: { type: 'string' },
    'per-minute': { type: 'string' },
    'per-day': { type: 'string' },
    price: { type: 'string', multiple: true },
    org: { type: 'string' },
  },
  async run({ config, args, options, io }) {
    const plan = args[0]!
    if (!(PLAN_IDS as readonly string[]).includes(plan)) return usage(io, `the plan must be one of: ${PLAN_IDS.join(', ')}`)
    const given = { name: options.name as string | undefined, perMinute: options['per-minute'], perDay: options['per-day'] }
    const priceTexts = (options.price as unknown as string[] | undefined) ?? []
    const org = options.org as string | undefined
    const name = given.name?.trim()
    if (name !== undefined && (name.length < 1 || name.length > 100)) return usage(io, '--name must be 1 to 100 characters')
    const perMinute = typeof given.perMinute === 'string' ? count(given.perMinute, MAX_PER_MINUTE) : undefined
    if (given.perMinute !== undefined && perMinute === undefined)
      return usage(io, `--per-minute must be a whole number from 1 to ${MAX_PER_MINUTE}`)
    const perDay = typeof given.perDay === 'string' ? count(given.perDay, MAX_PER_DAY) : undefined
    if (given.perDay !== undefined && perDay === undefined) return usage(io, `--per-day must be a whole number from 1 to ${MAX_PER_DAY}`)
    const prices: Exclude<ReturnType<typeof parsePrice>, string>[] = []
    for (const text of priceTexts) {
      const price = parsePrice(text)
      if (typeof price === 'string') return usage(io, price)
      if (prices.some((p) => p.currency === price.currency && p.interval === price.interval))
        return usage(io, `--price: a second price in ${price.currency} per ${price.interval}`)
      prices.push(price)
    }
    if (plan === 'free' && prices.length > 0) return usage(io, 'the free plan has no prices')
    if (org !== undefined) {
      if (plan !== 'enterprise') return usage(io, '--org gives an organization Enterprise prices of its own: the plan must be enterprise')
      if (name !== undefined || perMinute !== undefined || perDay !== undefined)
        return usage(io, "--org takes only --price (an organization's own rates: org set-limits)")
      if (prices.length === 0) return usage(io, 'plan set --org needs --price CUR:INTERVAL:AMOUNT')
    } else if (name === undefined && perMinute === undefined && perDay === undefined && prices.length === 0)
      return usage(io, 'plan set needs --name, --per-minute, --per-day or --price')
    return withDatabase(config, async (ctx) => {
      try {
        if (org !== undefined) await setOrganizationPrices(ctx, org, prices)
        else await updatePlan(ctx, plan, { name, rate_limit_per_minute: perMinute, rate_limit_per_day: perDay, prices })
      } catch (error) {
        if (error instanceof AppError && error.code === 'NOT_FOUND' && org !== undefined) return noSuchOrganization(io, org)
        if (!(error instanceof AppError)) throw error
        return failed(io, error)
      }
      const { plans, prices: active } = await getPlan(ctx, plan)
      io.stdout(JSON.stringify(plansJson(plans, active)[0]) + '\n')
      return EXIT.OK
    })
  },
}

function failed(io: CliIo, error: AppError): number {
  const details = (error.errors ?? []).map((e) => `${e.field}: ${e.message}`)
  io.stderr(`switchboard: ${[error.message, ...details].join('; ')}\n`)
  return EXIT.FAILED
}
