// The keys module's settings (assembled by src/config.ts): how long a rotated signing key is published before it signs.
import { Type, type TSchema } from '@sinclair/typebox'
import type { SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  KEY_ACTIVATION_DELAY: Type.Integer({
    minimum: 0,
    maximum: 2_592_000,
    default: 600,
    description:
      'Seconds between `keys rotate` publishing a new signing key and that key signing: verifiers that cache the JWKS (up to 5 minutes) see it first.',
  }),
} satisfies Record<string, TSchema>

export interface KeysSlice {
  readonly keyActivationDelayS: number
}

export function keysSlice(values: SettingValues): KeysSlice {
  return { keyActivationDelayS: values.KEY_ACTIVATION_DELAY as number }
}
