// Request and response schemas of the organization's call settings (the CallSettings component).
import { t } from 'elysia'

export const MAX_RETENTION_DAYS = 3650

export const CallSettingsBody = t.Object(
  {
    recording_retention_days: t.Integer({ description: 'Days a recording is kept before the cron loop deletes it (default 90)' }),
    twilio_account_sid: t.Nullable(t.String({ description: 'The Twilio account (AC…) whose voice status callbacks drive calls' })),
    twilio_auth_token_set: t.Boolean({ description: 'Whether an auth token is stored (it is never returned)' }),
    twilio_status_callback_url: t.String({ description: "The URL to give Twilio as the calls' StatusCallback (PUBLIC_URL + path)" }),
    updated_at: t.Nullable(t.String({ format: 'date-time', description: 'null while every setting is the default' })),
  },
  {
    title: 'CallSettings',
    examples: [
      {
        recording_retention_days: 90,
        twilio_account_sid: 'AC0123456789abcdef0123456789abcdef',
        twilio_auth_token_set: true,
        twilio_status_callback_url: 'https://switchboard.example.com/api/v1/integrations/twilio/voice-status',
        updated_at: '2026-01-15T09:30:00.000Z',
      },
    ],
  },
)

export const UpdateCallSettingsBody = t.Object(
  {
    recording_retention_days: t.Optional(
      t.Integer({ minimum: 1, maximum: MAX_RETENTION_DAYS, description: 'Applies to recordings made from now on' }),
    ),
    twilio_account_sid: t.Optional(
      t.Nullable(
        t.String({
          pattern: '^AC[0-9a-fA-F]{32}$',
          description: 'AC + 32 hex digits; null disconnects the account (and forgets its token)',
        }),
      ),
    ),
    twilio_auth_token: t.Optional(
      t.String({ minLength: 16, maxLength: 128, pattern: '^[!-~]+$', description: 'Write-only: stored encrypted, never returned' }),
    ),
  },
  {
    minProperties: 1,
    examples: [
      { twilio_account_sid: 'AC0123456789abcdef0123456789abcdef', twilio_auth_token: '0123456789abcdef0123456789abcdef' },
      { recording_retention_days: 30 },
    ],
  },
)
