// Response schemas of the roles and permissions endpoints.
import { t } from 'elysia'

export const RolesBody = t.Object({
  roles: t.Array(t.Object({ name: t.String(), permissions: t.Array(t.String()) }), { description: 'Most privileged first' }),
})

export const PermissionsBody = t.Object({
  permissions: t.Array(t.String(), {
    description: 'Every `resource:action`, grouped by resource',
    examples: [['ticket:read', 'ticket:create']],
  }),
})
