// An organization's report settings: its default time zone (reports without `tz`) and its business
// hours (a weekly schedule and holidays in a zone), read by `hours=business`. A changed schedule applies to
// what the fold reads from then on; `switchboard reports rebuild` recomputes the past with it.
import type { Ctx, UserActor } from '../../context.ts'
import { checkSchedule, type Schedule } from '../../lib/business-hours.ts'
import { isTimeZone } from '../../lib/zoned-time.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { scheduleOf } from './fold-task.ts'
import { badParameter } from './request.ts'
import { findReportSettings, saveReportSettings } from './store.ts'

export interface ReportSettings {
  time_zone: string
  business_hours: Schedule | null
}

export async function getReportSettings(ctx: Ctx<UserActor>): Promise<ReportSettings> {
  const row = await findReportSettings(ctx.db, ctx.actor.organizationId)
  return { time_zone: row?.time_zone ?? 'UTC', business_hours: scheduleOf(row?.business_hours) ?? null }
}

export async function updateReportSettings(
  ctx: Ctx<UserActor>,
  input: { time_zone: string; business_hours: unknown },
): Promise<ReportSettings> {
  if (!isTimeZone(input.time_zone)) throw badParameter('time_zone', `${JSON.stringify(input.time_zone)} is not an IANA time zone`)
  let schedule: Schedule | null = null
  if (input.business_hours !== null) {
    const given = input.business_hours as Record<string, unknown>
    const checked = checkSchedule(
      typeof given === 'object' && given !== null && given.zone === undefined ? { ...given, zone: input.time_zone } : given,
    )
    if (!checked.ok) throw badParameter(`business_hours.${checked.field}`, checked.message)
    schedule = checked.schedule
  }
  const now = ctx.clock.now()
  const settings = { time_zone: input.time_zone, business_hours: schedule }
  await ctx.db.write('reports.settings', async (tx) => {
    await saveReportSettings(tx, {
      organization_id: ctx.actor.organizationId,
      time_zone: settings.time_zone,
      business_hours: schedule === null ? null : JSON.stringify(schedule),
      updated_at: now,
    })
    await appendAudit(tx, {
      organizationId: ctx.actor.organizationId,
      actor: auditActorOf(ctx.actor),
      event: 'reports.settings_updated',
      target: { type: 'organization', id: ctx.actor.organizationId },
      details: { time_zone: settings.time_zone, business_hours: schedule !== null },
      request: ctx.actor.request,
      now,
    })
  })
  return settings
}
