// The HTTP layer of the CRM's contacts: routes under /api/v1/contacts (create, list and search, read
// with its account, update, delete, merge). Agents write only contacts they own or nobody owns.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors, requirePermission } from '../../../http/auth.ts'
import { listRequest } from '../../../http/list.ts'
import { IdParams } from '../model.ts'
import { contactJson } from './contact-json.ts'
import { createContact } from './create-contact.ts'
import { deleteContact } from './delete-contact.ts'
import { getContactWithAccount } from './get-contact.ts'
import { listContacts } from './list-contacts.ts'
import { mergeContacts } from './merge-contacts.ts'
import {
  ContactBody,
  ContactList,
  ContactListQuery,
  ContactWithAccountBody,
  CreateContactBody,
  MergeContactBody,
  UpdateContactBody,
} from './model.ts'
import { updateContact } from './update-contact.ts'

const tags = ['Contacts']
const OWNED = 'Agents may change only contacts they own or nobody owns, and make only themselves or nobody the owner.'

export function contactsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/contacts' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return contactJson(await createContact(ctx, body))
      },
      {
        permission: 'contact:create',
        body: CreateContactBody,
        response: { 201: ContactBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createContact',
          summary: 'Create a contact',
          description: `E-mail (case ignored), phone (E.164) and external id are each unique in the organization: 409 names the field. ${OWNED}`,
        },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { account_id, owner_id, contact_type, tag, blocked, q, created_after, created_before } = query
        return listContacts(ctx, {
          filters: { account_id, owner_id, contact_type, tag, blocked, q, created_after, created_before },
          request: listRequest(query),
        })
      },
      {
        permission: 'contact:read',
        query: ContactListQuery,
        response: { 200: t.NoValidate(ContactList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listContacts',
          summary: 'List and search contacts',
          description:
            'Keyset-paginated; sorts created_at, updated_at, name (case and accents ignored), last_activity_at; default created_at:desc. Merged contacts are not listed.',
        },
      },
    )
    .get('/:id', ({ ctx, params }) => getContactWithAccount(ctx, { id: params.id }), {
      permission: 'contact:read',
      params: IdParams,
      response: { 200: ContactWithAccountBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getContact', summary: 'Get a contact with its account' },
    })
    .patch('/:id', async ({ ctx, params, body }) => contactJson(await updateContact(ctx, { id: params.id, changes: body })), {
      permission: 'contact:update',
      params: IdParams,
      body: UpdateContactBody,
      response: { 200: ContactBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
      detail: { tags, operationId: 'updateContact', summary: 'Change a contact', description: OWNED },
    })
    .delete(
      '/:id',
      async ({ ctx, params, set }) => {
        await deleteContact(ctx, { id: params.id })
        set.status = 204
      },
      {
        permission: 'contact:delete',
        params: IdParams,
        response: { 204: t.Void({ description: 'Deleted; its tickets stay, without a contact' }), ...protectedErrors('NOT_FOUND') },
        detail: { tags, operationId: 'deleteContact', summary: 'Delete a contact', description: OWNED },
      },
    )
    .post(
      '/:id/merge',
      async ({ ctx, params, body }) => {
        // The other contact is gone afterwards: merging deletes as much as it updates.
        requirePermission(ctx.actor, 'contact:delete')
        return contactJson(await mergeContacts(ctx, { id: params.id, otherId: body.other_id }))
      },
      {
        permission: 'contact:update',
        params: IdParams,
        body: MergeContactBody,
        response: { 200: ContactBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND') },
        detail: {
          tags,
          operationId: 'mergeContact',
          summary: 'Merge another contact into this one',
          description:
            'In one transaction: the other’s tickets and converted leads move here, tags and custom fields are united, each empty field here takes the other’s value; the other then answers 404. Needs contact:delete too.',
        },
      },
    )
}
