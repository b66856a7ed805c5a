// The HTTP layer of the CRM's accounts: routes under /api/v1/accounts (create, list, read, update,
// delete). Everyone with account:read reads them; writing is for supervisors and above (the role table).
import { Elysia, t } from 'elysia'
import type { AppContext } from '../../../context.ts'
import { authMacros, protectedErrors } from '../../../http/auth.ts'
import { EXPORT_SORT_DEFAULT, listRequest } from '../../../http/list.ts'
import { CSV_RESPONSE, csvDownload } from '../csv.ts'
import { IdParams } from '../model.ts'
import { accountJson } from './account-json.ts'
import { createAccount } from './create-account.ts'
import { deleteAccount } from './delete-account.ts'
import { exportAccounts } from './export-accounts.ts'
import { getAccount } from './get-account.ts'
import { listAccounts } from './list-accounts.ts'
import {
  AccountBody,
  AccountExportQuery,
  AccountList,
  AccountListQuery,
  CreateAccountBody,
  DeleteAccountQuery,
  UpdateAccountBody,
} from './model.ts'
import { updateAccount } from './update-account.ts'

const tags = ['Accounts']

export function accountsRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1/accounts' })
    .use(authMacros(app))
    .post(
      '',
      async ({ ctx, body, set }) => {
        set.status = 201
        return accountJson(await createAccount(ctx, body))
      },
      {
        permission: 'account:create',
        body: CreateAccountBody,
        response: { 201: AccountBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createAccount',
          summary: 'Create an account',
          description: 'A company. Its domain (a URL is reduced to its host) is unique in the organization: 409 names the field.',
        },
      },
    )
    .get(
      '/export',
      ({ ctx, query }) => {
        const { owner_id, tag, q, created_after, created_before } = query
        const filters = { owner_id, tag, q, created_after, created_before }
        return csvDownload('accounts', ctx.clock.now(), exportAccounts(ctx, { filters, sort: query.sort ?? EXPORT_SORT_DEFAULT }))
      },
      {
        permission: 'account:read',
        query: AccountExportQuery,
        response: protectedErrors('VALIDATION_FAILED'),
        detail: {
          tags,
          operationId: 'exportAccounts',
          summary: 'Export accounts as CSV',
          description: 'Every account the filters select (those of the list), streamed, with its owner’s e-mail beside owner_id.',
          responses: CSV_RESPONSE,
        },
      },
    )
    .get(
      '',
      ({ ctx, query }) => {
        const { owner_id, tag, q, created_after, created_before } = query
        return listAccounts(ctx, { filters: { owner_id, tag, q, created_after, created_before }, request: listRequest(query) })
      },
      {
        permission: 'account:read',
        query: AccountListQuery,
        response: { 200: t.NoValidate(AccountList), ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listAccounts',
          summary: 'List accounts',
          description: 'Keyset-paginated; sorts created_at, updated_at, name (case and accents ignored); default created_at:desc.',
        },
      },
    )
    .get('/:id', async ({ ctx, params }) => accountJson(await getAccount(ctx.db, ctx.actor.organizationId, params.id)), {
      permission: 'account:read',
      params: IdParams,
      response: { 200: AccountBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getAccount', summary: 'Get an account' },
    })
    .patch('/:id', async ({ ctx, params, body }) => accountJson(await updateAccount(ctx, { id: params.id, changes: body })), {
      permission: 'account:update',
      params: IdParams,
      body: UpdateAccountBody,
      response: { 200: AccountBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
      detail: { tags, operationId: 'updateAccount', summary: 'Change an account' },
    })
    .delete(
      '/:id',
      async ({ ctx, params, query, set }) => {
        await deleteAccount(ctx, { id: params.id, cascade: query.cascade })
        set.status = 204
      },
      {
        permission: 'account:delete',
        params: IdParams,
        query: DeleteAccountQuery,
        response: { 204: t.Void({ description: 'Deleted' }), ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'deleteAccount',
          summary: 'Delete an account',
          description: 'Refused (409) while contacts belong to it, unless ?cascade=detach: they then stay, without an account.',
        },
      },
    )
}
