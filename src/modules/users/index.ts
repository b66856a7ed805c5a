// Routes of the users module, all within the caller's organization: create, read, update and disable
// users, and GET /me.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../context.ts'
import { authMacros, protectedErrors, requirePermission } from '../../http/auth.ts'
import { actorOf } from '../audit/record.ts'
import { createUser } from './create-user.ts'
import { getUserInOrg, userJson } from './get-user.ts'
import { listRequest } from '../../http/list.ts'
import { listUsers } from './list-users.ts'
import { CreateUserBody, MeBody, UpdateUserBody, UserBody, UserIdParams, UserList, UserListQuery } from './model.ts'
import { assertCanAssign } from './rules.ts'
import { updateUser } from './update-user.ts'

export function usersRoutes(deps: AppDeps) {
  const applyUpdate = (result: ReturnType<typeof updateUser>) => {
    for (const [sessionId, until] of result.revokedSessions) deps.revocations.rememberSession(sessionId, until)
    return result.user
  }
  return new Elysia({ prefix: '/api/v1' })
    .use(authMacros(deps))
    .get(
      '/me',
      ({ actor }) => {
        const user = getUserInOrg(deps.db, actor.organizationId, actor.userId)
        // What this credential may do: the role's grants, narrowed for a personal access token.
        return { ...userJson(user), permissions: [...actor.grants] }
      },
      { auth: true, response: { 200: MeBody, ...protectedErrors() }, detail: { tags: ['Users'], operationId: 'getMe', summary: 'The calling user, with its permissions' } },
    )
    .post(
      '/users',
      async ({ actor, body, set }) => {
        assertCanAssign(actor, body.role)
        const user = await createUser(deps.db, { ...body, organizationId: actor.organizationId }, () => deps.clock.now(), { actor: actorOf(actor), request: actor.request })
        set.status = 201
        return userJson(user)
      },
      {
        permission: 'user:create',
        body: CreateUserBody,
        response: { 201: UserBody, ...protectedErrors('VALIDATION_FAILED', 'CONFLICT') },
        detail: { tags: ['Users'], operationId: 'createUser', summary: 'Create a user', description: 'The role may not hold permissions the caller lacks (403). E-mails are unique across the installation (409).' },
      },
    )
    .get(
      '/users',
      ({ actor, query }) => {
        const { role, status, q } = query
        return listUsers(deps, actor, { role, status, q }, listRequest(query))
      },
      {
        permission: 'user:read',
        query: UserListQuery,
        response: { 200: UserList, ...protectedErrors('VALIDATION_FAILED', 'INVALID_PAGE_TOKEN') },
        detail: { tags: ['Users'], operationId: 'listUsers', summary: 'List users', description: 'Keyset-paginated; sorts created_at, name, email; default created_at:desc.' },
      },
    )
    .get('/users/:id', ({ actor, params }) => userJson(getUserInOrg(deps.db, actor.organizationId, params.id)), {
      permission: 'user:read',
      params: UserIdParams,
      response: { 200: UserBody, ...protectedErrors('NOT_FOUND') },
      detail: { tags: ['Users'], operationId: 'getUser', summary: 'Get a user' },
    })
    .patch(
      '/users/:id',
      ({ actor, params, body }) => {
        if (body.role !== undefined) requirePermission(actor, 'role:assign')
        return userJson(applyUpdate(updateUser(deps.db, actor, params.id, body, deps.clock.now())))
      },
      {
        permission: 'user:update',
        params: UserIdParams,
        body: UpdateUserBody,
        response: { 200: UserBody, ...protectedErrors('VALIDATION_FAILED', 'NOT_FOUND', 'CONFLICT') },
        detail: {
          tags: ['Users'],
          operationId: 'updateUser', summary: 'Change a user\'s name, role or status',
          description: 'Changing the role also needs `role:assign`. Nobody manages a user whose role holds more than theirs, and the last active Super Admin cannot be demoted or disabled (409).',
        },
      },
    )
    .delete(
      '/users/:id',
      ({ actor, params, set }) => {
        applyUpdate(updateUser(deps.db, actor, params.id, { status: 'disabled' }, deps.clock.now()))
        set.status = 204
      },
      {
        permission: 'user:delete',
        params: UserIdParams,
        response: { 204: t.Void({ description: 'Disabled' }), ...protectedErrors('NOT_FOUND', 'CONFLICT') },
        detail: { tags: ['Users'], operationId: 'disableUser', summary: 'Disable a user', description: 'The user is kept, with its history, and its sessions end. You cannot disable yourself or the last active Super Admin.' },
      },
    )
}
