// The HTTP layer of the CRM's leads: routes under /api/v1/leads (create, list, read, update, delete,
// convert).
// Every reader sees every lead; agents write only the leads they own or nobody owns.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { requirePermission } from '../../access/index.ts'
import { listRequest } from '../../../http/list.ts'
import { createLead } from './create-lead.ts'
import { conversionJson, convertLead, targetOf } from './convert-lead.ts'
import { deleteLead } from './delete-lead.ts'
import { getLead } from './get-lead.ts'
import { leadJson } from './lead-json.ts'
import { listLeads } from './list-leads.ts'
import {
  ConvertLeadBody,
  CreateLeadBody,
  LeadBody,
  LeadConversionBody,
  LeadIdParams,
  LeadList,
  LeadListQuery,
  UpdateLeadBody,
} from './model.ts'
import { updateLead } from './update-lead.ts'

const tags = ['Leads']
const OWNED = 'Agents change only the leads they own or nobody owns, and give them only to themselves or to nobody.'

export function leadsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/leads' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return leadJson(await createLead(ctx, body))
      },
      {
        permission: 'lead:create',
        body: CreateLeadBody,
        response: { 201: LeadBody, ...protectedErrors('VALIDATION_FAILED') },
        detail: { tags, operationId: 'createLead', summary: 'Create a lead', description: OWNED },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { status, owner_id, source, q, score_min, score_max, created_after, created_before } = query
        return listLeads(ctx, {
          filters: { status, owner_id, source, q, score_min, score_max, created_after, created_before },
          request: listRequest(query),
        })
      },
      {
        permission: 'lead:read',
        query: LeadListQuery,
        response: { 200: t.NoValidate(LeadList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listLeads',
          summary: 'List leads',
          description: 'Keyset-paginated; sorts created_at, updated_at, score; default created_at:desc.',
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => leadJson(await getLead(ctx.db, ctx.actor, params.id)), {
      permission: 'lead:read',
      params: LeadIdParams,
      response: { 200: LeadBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getLead', summary: 'Get a lead' },
    })
    .patch('/:id', async ({ ctx, params, body }) => leadJson(await updateLead(ctx, { id: params.id, changes: body })), {
      permission: 'lead:update',
      params: LeadIdParams,
      body: UpdateLeadBody,
      response: { 200: LeadBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'INVALID_STATE_TRANSITION') },
      detail: {
        tags,
        operationId: 'updateLead',
        summary: 'Change a lead',
        description: `Status follows the lifecycle: new -> contacted -> qualified; new, contacted and qualified -> unqualified; unqualified -> contacted. converted is reached only by POST /api/v1/leads/{id}/convert, and a converted lead is read-only (409). ${OWNED}`,
      },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteLead(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'lead:delete',
        params: LeadIdParams,
        response: { 204: t.Void({ description: 'Deleted' }), ...protectedErrors('NOT_FOUND', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'deleteLead',
          summary: 'Delete a lead',
          description: `A converted lead cannot be deleted (409). ${OWNED}`,
        },
      },
    )
    .post(
      '/:id/convert',
      async ({ ctx, params, body }) => {
        // What the request asks to create needs its own permission (an agent creates no account).
        if (body.account?.create) requirePermission(ctx.actor, 'account:create')
        if (body.contact.create) requirePermission(ctx.actor, 'contact:create')
        const account = body.account ? targetOf('account', body.account) : null
        return conversionJson(await convertLead(ctx, { id: params.id, account, contact: targetOf('contact', body.contact) }))
      },
      {
        permission: 'lead:convert',
        params: LeadIdParams,
        body: ConvertLeadBody,
        response: { 200: LeadConversionBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT', 'INVALID_STATE_TRANSITION') },
        detail: {
          tags,
          operationId: 'convertLead',
          summary: 'Convert a lead into a contact (and an account)',
          description:
            "A qualified lead becomes converted in one transaction: the contact is the one given by id, or the organization's contact with the same e-mail (then phone), or a new one; the account likewise (by id, by domain, or new), and the contact is linked to it. Emits crm.contact.lead_converted (lead, contact and account in data) after the crm.account.created, crm.contact.created or crm.contact.updated events of what it made. Converting a converted lead changes nothing and answers the same 200 with what it was converted into. Creating an account needs account:create, a contact contact:create. " +
            OWNED,
        },
      },
    )
}
