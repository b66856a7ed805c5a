// The agents module's settings (assembled by src/config.ts): when an idle agent is logged out.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  AGENT_IDLE_TIMEOUT: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 1800,
    description: 'Seconds without a request after which the cron loop logs out an agent whose `auto_offline` is on (1 to 7 days).',
  }),
} satisfies Record<string, TSchema>

export interface AgentsSlice {
  /** An agent with auto_offline is logged out after this long without a request. */
  readonly agentIdleTimeoutMs: number
}

export function agentsSlice(values: SettingValues): AgentsSlice {
  return { agentIdleTimeoutMs: (values.AGENT_IDLE_TIMEOUT as number) * 1000 }
}
