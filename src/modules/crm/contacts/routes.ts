// The HTTP layer of the CRM's contacts: routes under /api/v1/contacts (create, list and search, read
// with its account, update, delete, merge). Agents write only contacts they own or nobody owns.
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import type { Config } from '../../../config.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { requirePermission } from '../../access/index.ts'
import { cappedChunks, type StreamedBody } from '../../../http/body.ts'
import { claimKeyForStreamedBody } from '../../../http/idempotency.ts'
import { EXPORT_SORT_DEFAULT, listRequest } from '../../../http/list.ts'
import { CSV_REQUEST_BODY, CSV_RESPONSE, csvDownload } from '../csv.ts'
import { IdParams } from '../model.ts'
import { contactJson } from './contact-json.ts'
import { createContact } from './create-contact.ts'
import { deleteContact } from './delete-contact.ts'
import { exportContacts } from './export-contacts.ts'
import { getContactWithAccount } from './get-contact.ts'
import { type ImportReport, importContacts } from './import-contacts.ts'
import { listContacts } from './list-contacts.ts'
import { mergeContacts } from './merge-contacts.ts'
import {
  ContactBody,
  ContactExportQuery,
  ContactImportQuery,
  ContactImportReport,
  ContactList,
  ContactListQuery,
  ContactWithAccountBody,
  CreateContactBody,
  MergeContactBody,
  UpdateContactBody,
} from './model.ts'
import { readContactCsv } from './read-contact-csv.ts'
import { updateContact } from './update-contact.ts'

const tags = ['Contacts']
const OWNED = 'Agents may change only contacts they own or nobody owns, and make only themselves or nobody the owner.'

export const IMPORT_PATH = '/api/v1/contacts/import'

/** The import reads its CSV as a stream, with its own cap (IMPORT_MAX_BYTES) instead of MAX_BODY_BYTES. */
export function contactImportBody(config: Pick<Config, 'importMaxBytes'>): StreamedBody {
  return { method: 'POST', path: IMPORT_PATH, mediaTypes: ['text/csv', 'application/csv'], maxBytes: config.importMaxBytes }
}

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
    .post(
      '/import',
      async (c) => {
        const { ctx, request, query } = c
        const now = ctx.clock.now()
        const read = await readContactCsv(cappedChunks(request, app.config.importMaxBytes), {
          organizationId: ctx.actor.organizationId,
          now,
          maxRows: app.config.importMaxRows,
        })
        // Claimed only now: the key is bound to the file, which could not be hashed before it was read.
        const replay = await claimKeyForStreamedBody(app, c, read.digest)
        // The first answer as it was sent (Elysia's types want one body type per route).
        if (replay) return replay as unknown as ImportReport
        return importContacts(ctx, { rows: read.rows, dryRun: query.dry_run ?? false })
      },
      {
        permission: 'contact:create',
        query: ContactImportQuery,
        response: { 200: ContactImportReport, ...protectedErrors('VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE') },
        detail: {
          tags,
          operationId: 'importContacts',
          summary: 'Import contacts from a CSV file',
          description:
            'The body is the file (Content-Type: text/csv, UTF-8, a header row naming the columns, at most IMPORT_MAX_BYTES and IMPORT_MAX_ROWS). Each row is checked as a new contact; the accepted ones are created in one transaction (crm.contact.created each), the refused ones are listed with their reasons. A file that is not CSV or UTF-8, or names an unknown column, is 400 and imports nothing. An Idempotency-Key is bound to the file.',
          requestBody: CSV_REQUEST_BODY,
        },
      },
    )
    .get(
      '/export',
      ({ ctx, query }) => {
        const { account_id, owner_id, contact_type, tag, blocked, q, created_after, created_before } = query
        const filters = { account_id, owner_id, contact_type, tag, blocked, q, created_after, created_before }
        return csvDownload('contacts', ctx.clock.now(), exportContacts(ctx, { filters, sort: query.sort ?? EXPORT_SORT_DEFAULT }))
      },
      {
        permission: 'contact:read',
        query: ContactExportQuery,
        response: protectedErrors('VALIDATION_FAILED'),
        detail: {
          tags,
          operationId: 'exportContacts',
          summary: 'Export contacts as CSV',
          description:
            'Every contact the filters select (those of the list), streamed: the columns an import reads, plus id and times. Cells that a spreadsheet would run as formulas start with a quote.',
          responses: CSV_RESPONSE,
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
        response: {
          204: t.Void({ description: 'Deleted; its tickets, calls and survey responses stay, without a contact' }),
          ...protectedErrors('NOT_FOUND', 'CONFLICT'),
        },
        detail: {
          tags,
          operationId: 'deleteContact',
          summary: 'Delete a contact',
          description: `Refused (409 CONFLICT, naming them) while engagement sessions are with it: a session cannot exist without its contact; merge it into another contact to keep them there. Its tickets, calls and survey responses stay without it, each change recorded (ticket.updated; the calls' audit records). ${OWNED}`,
        },
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
            'In one transaction: the other’s tickets, calls, engagement sessions, survey responses and converted leads move here, tags and custom fields are united, each empty field here takes the other’s value; the other then answers 404. Needs contact:delete too.',
        },
      },
    )
}
