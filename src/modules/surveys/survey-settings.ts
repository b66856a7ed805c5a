// The organization's survey settings: which surveys are offered automatically when a ticket is solved
// and when an engagement session closes (per channel). The default, with no row, offers none: an
// organization opts in, since nothing sends the links for it (see README).
import type { Ctx, UserActor } from '../../context.ts'
import type { Queries } from '../../db/database.ts'
import { isoTime } from '../../lib/clock.ts'
import { findSurveySettings, type SurveySettingsRow, saveSurveySettings } from './store.ts'
import type { SurveyType } from './table.ts'

export interface SurveySettings {
  on_ticket_solved: SurveyType[]
  on_engagement_closed: Record<string, SurveyType[]>
  updated_at: number | null
}

/** `lock`: tx.forUpdate when the settings are read to be changed (findSurveySettings). */
export async function surveySettingsOf(db: Queries, organizationId: string, lock = ''): Promise<SurveySettings> {
  const row = await findSurveySettings(db, organizationId, lock)
  if (!row) return { on_ticket_solved: [], on_engagement_closed: {}, updated_at: null }
  return {
    on_ticket_solved: JSON.parse(row.on_ticket_solved) as SurveyType[],
    on_engagement_closed: JSON.parse(row.on_engagement_closed) as Record<string, SurveyType[]>,
    updated_at: Number(row.updated_at),
  }
}

export function surveySettingsJson(settings: SurveySettings) {
  return { ...settings, updated_at: settings.updated_at === null ? null : isoTime(settings.updated_at) }
}

export function getSurveySettings(ctx: Ctx<UserActor>): Promise<SurveySettings> {
  return surveySettingsOf(ctx.db, ctx.actor.organizationId)
}

const unique = (types: readonly SurveyType[]) => [...new Set(types)]

/** Only the fields sent change; a channel's list replaces that channel's (an empty list removes it). */
export async function updateSurveySettings(
  ctx: Ctx<UserActor>,
  changes: { on_ticket_solved?: SurveyType[]; on_engagement_closed?: Record<string, SurveyType[]> },
): Promise<SurveySettings> {
  const { organizationId } = ctx.actor
  const now = ctx.clock.now()
  return ctx.db.write('survey.settings', async (tx) => {
    // Locked: PATCHes at once each apply to the others' result (findSurveySettings).
    const current = await surveySettingsOf(tx, organizationId, tx.forUpdate)
    const byChannel = { ...current.on_engagement_closed }
    for (const [channel, types] of Object.entries(changes.on_engagement_closed ?? {}))
      if (types.length === 0) delete byChannel[channel]
      else byChannel[channel] = unique(types)
    const row: SurveySettingsRow = {
      organization_id: organizationId,
      on_ticket_solved: JSON.stringify(unique(changes.on_ticket_solved ?? current.on_ticket_solved)),
      on_engagement_closed: JSON.stringify(byChannel),
      updated_at: now,
    }
    await saveSurveySettings(tx, row)
    return surveySettingsOf(tx, organizationId)
  })
}
