// A contact's form, to create one (POST /api/v1/contacts) or change one (PATCH …/{id}): name, e-mail,
// phone, external id, type, owner, tags, blocked and consent. The API checks and words every field.
import { api } from '../../api.ts'
import { ErrorNote, useAction, useMe } from '../../ui.tsx'
import { options } from '../tickets/labels.ts'
import { splitTags, useFields, useUsers } from '../tickets/shared.tsx'
import { CONSENT_LABELS, type Contact, TYPE_LABELS } from './labels.ts'

const CONSENTS = ['email', 'sms', 'marketing'] as const

function initialValues(contact: Contact | undefined): Record<string, string> {
  if (!contact) return { contact_type: 'customer' }
  const values: Record<string, string> = {
    name: contact.name,
    email: contact.email ?? '',
    phone: contact.phone ?? '',
    external_id: contact.external_id ?? '',
    contact_type: contact.contact_type,
    owner_id: contact.owner_id ?? '',
    tags: contact.tags.join(' '),
    blocked: contact.blocked ? 'true' : '',
  }
  for (const kind of CONSENTS) values[`consent_${kind}`] = contact.consent[kind].granted ? 'true' : ''
  return values
}

type ContactBody = {
  name: string
  email: string | null
  phone: string | null
  external_id: string | null
  contact_type: Contact['contact_type']
  owner_id: string | null
  tags: string[]
  blocked: boolean
  consent?: Partial<Record<(typeof CONSENTS)[number], boolean>>
}

function bodyOf(values: Record<string, string>): ContactBody {
  return {
    name: values.name ?? '',
    email: values.email || null,
    phone: values.phone || null,
    external_id: values.external_id || null,
    contact_type: values.contact_type as Contact['contact_type'],
    owner_id: values.owner_id || null,
    tags: splitTags(values.tags),
    blocked: values.blocked === 'true',
  }
}

export function ContactForm({
  contact,
  onSaved,
  onCancel,
}: {
  contact?: Contact
  onSaved: (contact: Contact) => void
  onCancel?: () => void
}) {
  const me = useMe()
  const users = useUsers()
  const { busy, error, run } = useAction()
  const { values, field, checkbox } = useFields(initialValues(contact), contact ? 'contact-edit' : 'contact-new')
  async function submit(event: SubmitEvent) {
    event.preventDefault()
    // Consent is sent only where it changes: the API stamps the time of each change.
    const consent: Partial<Record<(typeof CONSENTS)[number], boolean>> = {}
    for (const kind of CONSENTS) {
      const granted = values[`consent_${kind}`] === 'true'
      if (granted !== (contact?.consent[kind].granted ?? false)) consent[kind] = granted
    }
    const body = bodyOf(values)
    if (Object.keys(consent).length > 0) body.consent = consent
    if (!contact) {
      const created = await run(() => api().POST('/api/v1/contacts', { body }))
      if (created) onSaved(created)
      return
    }
    // Only what changed, so the record (and its event) names just that.
    const before = bodyOf(initialValues(contact))
    const changes = Object.fromEntries(
      Object.entries(body).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before])),
    )
    if (Object.keys(changes).length === 0) return onSaved(contact)
    const saved = await run(() => api().PATCH('/api/v1/contacts/{id}', { params: { path: { id: contact.id } }, body: changes }))
    if (saved) onSaved(saved)
  }
  // The current owner stays a choice even when the users cannot be listed.
  const owners = users.filter((user) => user.id !== me.id && (user.status === 'active' || user.id === contact?.owner_id))
  const ownerUnknown = contact?.owner_id && contact.owner_id !== me.id && !owners.some((user) => user.id === contact.owner_id)
  const id = (name: string) => field(name).id
  return (
    <form class="tickets-form" onSubmit={submit}>
      <label for={id('name')}>Name</label>
      <input {...field('name')} required maxLength={200} autocomplete="off" />
      <label for={id('email')}>E-mail</label>
      <input {...field('email')} type="email" autocomplete="off" />
      <label for={id('phone')}>Phone (with its country code, +44…)</label>
      <input {...field('phone')} type="tel" autocomplete="off" />
      <label for={id('external_id')}>External id</label>
      <input {...field('external_id')} autocomplete="off" />
      <label for={id('contact_type')}>Type</label>
      <select {...field('contact_type')}>
        {options(TYPE_LABELS).map(([value, label]) => (
          <option value={value}>{label}</option>
        ))}
      </select>
      <label for={id('owner_id')}>Owner</label>
      <select {...field('owner_id')}>
        <option value="">Nobody</option>
        <option value={me.id}>Me</option>
        {ownerUnknown && <option value={contact.owner_id!}>{contact.owner_id}</option>}
        {owners.map((user) => (
          <option value={user.id}>{user.name}</option>
        ))}
      </select>
      <label for={id('tags')}>Tags (separated by spaces or commas)</label>
      <input {...field('tags')} autocomplete="off" />
      <label class="tickets-check">
        <input type="checkbox" {...checkbox('blocked')} />
        Blocked
      </label>
      <fieldset>
        <legend>Consent</legend>
        {CONSENTS.map((kind) => (
          <label class="tickets-check">
            <input type="checkbox" {...checkbox(`consent_${kind}`)} />
            Consents to {CONSENT_LABELS[kind].toLowerCase()}
          </label>
        ))}
      </fieldset>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : contact ? 'Save changes' : 'Create contact'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  )
}
