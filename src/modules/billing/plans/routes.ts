// The HTTP layer of plans and prices: the operator's routes under /api/v1/operator (an operator token)
// and the organization's GET /api/v1/billing/plans (what it may subscribe to).
import { Elysia } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { errorResponses } from '../../../http/problem.ts'
import type { ErrorCode } from '../../../errors.ts'
import {
  OrganizationParams,
  OrganizationPriceBody,
  PlanBody,
  PlanList,
  PlanParams,
  PriceBody,
  PriceParams,
  UpdatePlanBody,
} from './model.ts'
import { deactivatePrice, listOfferedPlans, listPlans, type PlansWithPrices, setOrganizationPrices, updatePlan } from './operate-plans.ts'
import { plansJson, priceJson } from './plan-json.ts'

const operatorErrors = (...codes: ErrorCode[]) => errorResponses('UNAUTHENTICATED', 'TOKEN_INVALID', ...codes)
const list = ({ plans, prices }: PlansWithPrices) => ({ plans: plansJson(plans, prices) })

export function plansRoutes(app: AppContext) {
  return new Elysia()
    .use(authMacros(app))
    .get('/api/v1/billing/plans', async ({ ctx }) => list(await listOfferedPlans(ctx, ctx.actor.organizationId)), {
      permission: 'billing:read',
      response: { 200: PlanList, ...protectedErrors() },
      detail: {
        tags: ['Billing'],
        operationId: 'listBillingPlans',
        summary: 'Plans and the prices offered to the organization',
        description:
          "The four plans with their request rates and the active prices the organization may subscribe to: every public price, and the organization's own Enterprise prices (in place of a public one of the same currency and interval).",
      },
    })
    .get('/api/v1/operator/plans', async ({ ctx }) => list(await listPlans(ctx)), {
      operator: true,
      response: { 200: PlanList, ...operatorErrors() },
      detail: {
        tags: ['Operator'],
        operationId: 'operatorListPlans',
        summary: 'Every plan with its active prices',
        description: "Public prices and every organization's own Enterprise prices (organization_id set).",
      },
    })
    .put('/api/v1/operator/plans/:plan', async ({ ctx, params, body }) => list(await updatePlan(ctx, params.plan, body)).plans[0]!, {
      operator: true,
      params: PlanParams,
      body: UpdatePlanBody,
      response: { 200: PlanBody, ...operatorErrors('VALIDATION_FAILED', 'NOT_FOUND') },
      detail: {
        tags: ['Operator'],
        operationId: 'operatorUpdatePlan',
        summary: "Change a plan's name, request rates or public prices",
        description:
          "Only the fields sent change. New rates apply on each organization's next request (an organization's own rates, org set-limits, win). Each price replaces the active public price of its currency and interval (the old one is deactivated; subscriptions on it keep it); the free plan takes no prices (400). Answers the plan with every active price.",
      },
    })
    .delete('/api/v1/operator/prices/:id', async ({ ctx, params }) => priceJson(await deactivatePrice(ctx, params.id)), {
      operator: true,
      params: PriceParams,
      response: { 200: PriceBody, ...operatorErrors('NOT_FOUND', 'CONFLICT') },
      detail: {
        tags: ['Operator'],
        operationId: 'operatorDeactivatePrice',
        summary: 'Withdraw a price',
        description: 'No new subscription may take it; subscriptions already on it keep it. An inactive price is 409.',
      },
    })
    .post(
      '/api/v1/operator/organizations/:org_id/prices',
      async ({ ctx, params, body, set }) => {
        set.status = 201
        return priceJson((await setOrganizationPrices(ctx, params.org_id, [body]))[0]!)
      },
      {
        operator: true,
        params: OrganizationParams,
        body: OrganizationPriceBody,
        response: { 201: PriceBody, ...operatorErrors('VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags: ['Operator'],
          operationId: 'operatorCreateOrganizationPrice',
          summary: 'Give an organization an Enterprise price of its own',
          description:
            'A custom Enterprise price offered to this organization only (never shown to another), replacing its own active price of the same currency and interval. Unknown organization: 404.',
        },
      },
    )
}
