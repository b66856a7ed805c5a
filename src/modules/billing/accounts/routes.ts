// The HTTP layer of billing settings: the organization's GET and PATCH /api/v1/billing/settings, and the
// operator's GET and PATCH /api/v1/operator/organizations/{org_id}/billing (every field).
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { errorResponses } from '../../../http/problem.ts'
import { BillingSettingsBody, OperatorBillingSettingsBody, OrganizationParams, UpdateBillingSettingsBody } from './model.ts'
import { billingSettingsJson, getBillingSettings, updateBillingSettings } from './settings.ts'

export function billingAccountRoutes(app: AppContext) {
  return new Elysia()
    .use(authMacros(app))
    .get('/api/v1/billing/settings', async ({ ctx }) => billingSettingsJson(await getBillingSettings(ctx, ctx.actor.organizationId)), {
      permission: 'billing:read',
      response: { 200: BillingSettingsBody, ...protectedErrors() },
      detail: {
        tags: ['Billing'],
        operationId: 'getBillingSettings',
        summary: "The organization's billing settings",
        description:
          'Its details printed on invoices, the dunning choice, the tax rate and days until due (the operator sets these two) and its credit balance.',
      },
    })
    .patch(
      '/api/v1/billing/settings',
      async ({ ctx, body }) => billingSettingsJson(await updateBillingSettings(ctx, ctx.actor.organizationId, body)),
      {
        permission: 'billing:manage',
        body: UpdateBillingSettingsBody,
        response: { 200: BillingSettingsBody, ...protectedErrors('VALIDATION_FAILED') },
        detail: {
          tags: ['Billing'],
          operationId: 'updateBillingSettings',
          summary: 'Change billing details or the dunning choice',
          description:
            "Only the fields sent change; null (or an empty text) clears a detail. Invoices already finalized keep the details they were issued with. tax_rate_bps and days_until_due are the operator's: sending them is 400.",
        },
      },
    )
    .get(
      '/api/v1/operator/organizations/:org_id/billing',
      async ({ ctx, params }) => billingSettingsJson(await getBillingSettings(ctx, params.org_id)),
      {
        operator: true,
        params: OrganizationParams,
        response: { 200: BillingSettingsBody, ...errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'NOT_FOUND') },
        detail: { tags: ['Operator'], operationId: 'operatorGetBillingSettings', summary: "An organization's billing settings" },
      },
    )
    .patch(
      '/api/v1/operator/organizations/:org_id/billing',
      async ({ ctx, params, body }) => billingSettingsJson(await updateBillingSettings(ctx, params.org_id, body)),
      {
        operator: true,
        params: OrganizationParams,
        body: OperatorBillingSettingsBody,
        response: { 200: BillingSettingsBody, ...errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', 'VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags: ['Operator'],
          operationId: 'operatorUpdateBillingSettings',
          summary: "Change an organization's billing settings, its tax rate and days until due included",
          description:
            'Only the fields sent change. tax_rate_bps (0 to 10000; 2000 is 20 %) applies to invoices finalized from now on; days_until_due (0 to 365) to invoices sent for payment from now on.',
        },
      },
    )
}
