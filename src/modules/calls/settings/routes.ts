// The HTTP layer of the organization's call settings: GET and PATCH /api/v1/organization/calls.
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { CallSettingsBody, UpdateCallSettingsBody } from './model.ts'
import { callSettingsJson, getCallSettings, updateCallSettings } from './update-settings.ts'

const tags = ['Organization']

export function callSettingsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/organization' })
    .use(authMacros(app))
    .get('/calls', async ({ ctx }) => callSettingsJson(app, await getCallSettings(ctx)), {
      permission: 'organization:read',
      response: { 200: CallSettingsBody, ...protectedErrors() },
      detail: { tags, operationId: 'getCallSettings', summary: 'Call settings: recording retention, Twilio account' },
    })
    .patch('/calls', async ({ ctx, body }) => callSettingsJson(app, await updateCallSettings(ctx, body)), {
      permission: 'organization:update',
      body: UpdateCallSettingsBody,
      response: { 200: CallSettingsBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
      detail: {
        tags,
        operationId: 'updateCallSettings',
        summary: 'Change call settings',
        description:
          'Only the fields sent change. The auth token is write-only (encrypted with the master key; the answer says whether one is set) and is required with an account. An account connected to another organization is 409.',
      },
    })
}
