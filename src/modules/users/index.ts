// The users module's public entry: its routes (create, read, update and disable users of the caller's
// organization, and GET /me) and what other modules use: lookups, creation inside a transaction (first
// start, CLI), the management rules and the user's JSON. The re-exports come first (see access/index.ts).
export { assertCanAssign, assertCanManage } from './rules.ts'
export { createUser, findUserByEmail, insertUser, type NewUser, type UserChanges, updateUser } from './service.ts'
export { findUserInOrg, getUserInOrg, setPasswordHash, type UserRow } from './store.ts'
export { USER_STATUSES, type UserStatus, type UsersTable } from './table.ts'
export { normalizeEmail, type UserJson, userJson } from './user-json.ts'
// The User component's example, for the webhook examples and test sends (event-data).
export { USER_EXAMPLE } from './model.ts'

import { Elysia, t } from 'elysia'
import type { AppContext } from '../../context.ts'
import { authMacros, protectedErrors } from '../../http/auth.ts'
import { requirePermission } from '../access/index.ts'
import { listRequest } from '../../http/list.ts'
import { listUsers } from './list-users.ts'
import { CreateUserBody, MeBody, UpdateUserBody, UserBody, UserIdParams, UserList, UserListQuery } from './model.ts'
import { assertCanAssign } from './rules.ts'
import { createUser, updateUser } from './service.ts'
import { getUserInOrg } from './store.ts'
import { userJson } from './user-json.ts'

const tags = ['Users']

export function usersRoutes(app: AppContext) {
  return new Elysia({ prefix: '/api/v1' })
    .use(authMacros(app))
    .get(
      '/me',
      async ({ ctx, actor }) => {
        const user = await getUserInOrg(ctx.db, actor.organizationId, actor.userId)
        // What this credential may do: the role's grants, narrowed for a personal access token.
        return { ...userJson(user), permissions: [...actor.grants] }
      },
      {
        auth: true,
        response: { 200: MeBody, ...protectedErrors() },
        detail: { tags, operationId: 'getMe', summary: 'The calling user, with its permissions' },
      },
    )
    .post(
      '/users',
      async ({ ctx, actor, body, set }) => {
        assertCanAssign(actor, body.role)
        const user = await createUser(ctx, { ...body, organizationId: actor.organizationId })
        set.status = 201
        return userJson(user)
      },
      {
        permission: 'user:create',
        body: CreateUserBody,
        response: { 201: UserBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'createUser',
          summary: 'Create a user',
          description: 'The role may not hold permissions the caller lacks (403). E-mails are unique across the installation (409).',
        },
      },
    )
    .get(
      '/users',
      ({ ctx, query }) => {
        const { role, status, q } = query
        return listUsers(ctx, { filters: { role, status, q }, request: listRequest(query) })
      },
      {
        permission: 'user:read',
        query: UserListQuery,
        response: { 200: UserList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: {
          tags,
          operationId: 'listUsers',
          summary: 'List users',
          description: 'Keyset-paginated; sorts created_at, name, email; default created_at:desc.',
        },
      },
    )
    .get('/users/:id', async ({ ctx, actor, params }) => userJson(await getUserInOrg(ctx.db, actor.organizationId, params.id)), {
      permission: 'user:read',
      params: UserIdParams,
      response: { 200: UserBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags, operationId: 'getUser', summary: 'Get a user' },
    })
    .patch(
      '/users/:id',
      async ({ ctx, actor, params, body }) => {
        if (body.role !== undefined) requirePermission(actor, 'role:assign')
        return userJson(await updateUser(ctx, { id: params.id, changes: body }))
      },
      {
        permission: 'user:update',
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'updateUser',
          summary: "Change a user's name, role or status",
          description:
            'Changing the role also needs `role:assign`. Nobody manages a user whose role holds more than theirs, and the last active Super Admin cannot be demoted or disabled (409).',
        },
      },
    )
    .delete(
      '/users/:id',
      async ({ ctx, params, set }) => {
        await updateUser(ctx, { id: params.id, changes: { status: 'disabled' } })
        set.status = 204
      },
      {
        permission: 'user:delete',
        params: UserIdParams,
        response: { 204: t.Void({ description: 'Disabled' }), ...protectedErrors('NOT_FOUND', 'CONFLICT') },
        detail: {
          tags,
          operationId: 'disableUser',
          summary: 'Disable a user',
          description:
            'The user is kept, with its history, and its sessions end. You cannot disable yourself or the last active Super Admin.',
        },
      },
    )
}
