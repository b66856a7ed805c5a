// Survey metrics, read from the survey responses themselves (an offer writes no event): CSAT (share of
// 4-5 of the answers on 1-5), NPS (% 9-10 minus % 0-6), CES (mean, 1-7), response rate (answered /
// offered, of the surveys offered in the window).
import type { Agg } from '../facts.ts'
import { countAtMost } from '../histogram.ts'
import type { MetricFamily } from '../metric.ts'
import { count, mean, ratio } from './shared.ts'

const DIMENSIONS = ['agent', 'channel'] as const

function share(aggs: ReadonlyMap<string, Agg>, stream: string, from: number): number | null {
  const agg = aggs.get(stream)
  if (!agg || agg.n === 0) return null
  return ratio(agg.n - countAtMost(agg.hist, from - 1), agg.n)
}

const metric = { family: 'surveys', records: 'survey_responses', dimensions: DIMENSIONS, version: 1 } as const

export const SURVEYS: MetricFamily = {
  metrics: [
    {
      ...metric,
      id: 'surveys.csat',
      name: 'CSAT',
      unit: 'ratio',
      definition: 'Share of CSAT answers (1-5) that are 4 or 5, of the answers given in the window; unanswered surveys are left out.',
      streams: ['survey.csat'],
      value: (aggs) => share(aggs, 'survey.csat', 4),
    },
    {
      ...metric,
      id: 'surveys.nps',
      name: 'NPS',
      unit: 'score',
      definition:
        'Percentage of NPS answers (0-10) that are 9 or 10, minus the percentage that are 0 to 6, of the answers given in the window (-100 to 100).',
      streams: ['survey.nps'],
      value: (aggs) => {
        const agg = aggs.get('survey.nps')
        if (!agg || agg.n === 0) return null
        const promoters = agg.n - countAtMost(agg.hist, 8)
        const detractors = countAtMost(agg.hist, 6)
        return Math.round(((promoters - detractors) / agg.n) * 1000) / 10
      },
    },
    {
      ...metric,
      id: 'surveys.ces',
      name: 'CES',
      unit: 'score',
      definition: 'Mean of the CES answers (1-7) given in the window.',
      streams: ['survey.ces'],
      value: (aggs) => mean(aggs, 'survey.ces'),
    },
    {
      ...metric,
      id: 'surveys.offered',
      name: 'Surveys offered',
      unit: 'count',
      definition: 'Surveys offered in the window (every type).',
      streams: ['survey.offered'],
      value: count('survey.offered'),
    },
    {
      ...metric,
      id: 'surveys.response_rate',
      name: 'Response rate',
      unit: 'ratio',
      definition: 'Of the surveys offered in the window, the share answered (so far).',
      streams: ['survey.offered'],
      value: (aggs) => {
        const agg = aggs.get('survey.offered')
        return agg ? ratio(agg.total, agg.n) : null
      },
    },
  ],
  folders: {},
}
