// CRM metrics, read from the contacts and leads themselves (creating a lead writes no event): contacts
// created, leads created and converted, and the conversion rate of the leads created in the window.
import type { MetricFamily } from '../metric.ts'
import { count, ratio } from './shared.ts'

const metric = { family: 'crm', version: 1 } as const

export const CRM: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'crm.contacts_created',
      name: 'Contacts created',
      unit: 'count',
      definition: 'Contacts created in the window that still exist.',
      records: 'contacts',
      dimensions: ['owner', 'contact_type'],
      streams: ['contact.created'],
      value: count('contact.created'),
    },
    {
      ...metric,
      id: 'crm.leads_created',
      name: 'Leads created',
      unit: 'count',
      definition: 'Leads created in the window that still exist.',
      records: 'leads',
      dimensions: ['owner', 'source'],
      streams: ['lead.created'],
      value: count('lead.created'),
    },
    {
      ...metric,
      id: 'crm.leads_converted',
      name: 'Leads converted',
      unit: 'count',
      definition: 'Leads converted in the window, by the time of their conversion.',
      records: 'leads',
      dimensions: ['owner', 'source'],
      streams: ['lead.converted'],
      value: count('lead.converted'),
    },
    {
      ...metric,
      id: 'crm.conversion_rate',
      name: 'Conversion rate',
      unit: 'ratio',
      definition: 'Of the leads created in the window, the share converted (so far).',
      records: 'leads',
      dimensions: ['owner', 'source'],
      streams: ['lead.created'],
      value: (aggs) => {
        const agg = aggs.get('lead.created')
        return agg ? ratio(agg.total, agg.n) : null
      },
    },
  ],
  folders: {},
}
