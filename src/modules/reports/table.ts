// The rows of the reports tables (0023_reports.sql, 0024_report_totals.sql).

export interface ReportFactsTable {
  organization_id: string
  metric: string
  at: number
  record_type: string
  record_id: string
  seq: number
  value: number | null
  started_at: number | null
  business_value: number | null
  dims: string
}

export interface ReportTotalsTable {
  organization_id: string
  metric: string
  dim: string
  /** 'hour' (UTC) or 'day' (in report_progress.day_zone). */
  span: string
  bucket_start: number
  dim_value: string
  n: number
  total: number
  business_total: number
  hist: string
  business_hist: string
}

export interface ReportStateTable {
  organization_id: string
  state_key: string
  value: string
}

export interface ReportProgressTable {
  organization_id: string
  folded_seq: number
  folded_at: number
  keep_before: number | null
  keep_until_seq: number | null
  day_zone: string | null
}

export interface ReportDeletionsTable {
  organization_id: string
  record_id: string
  deleted_at: number
  folded: boolean
}

export interface ReportSettingsTable {
  organization_id: string
  time_zone: string
  business_hours: string | null
  updated_at: number
}

declare module '../../db/database.ts' {
  interface Tables {
    report_facts: ReportFactsTable
    report_totals: ReportTotalsTable
    report_state: ReportStateTable
    report_progress: ReportProgressTable
    report_settings: ReportSettingsTable
    report_deletions: ReportDeletionsTable
  }
}
