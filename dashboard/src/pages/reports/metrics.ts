// The metrics the Reports screen shows: what a contact centre reads first. Their names and units come
// from the API's answers; billing metrics need billing:read as well, so they are left to the API.
export const CARD_METRICS = [
  'tickets.created',
  'tickets.solved',
  'tickets.reopened',
  'tickets.first_response_time',
  'tickets.resolution_time',
  'calls.offered',
  'calls.answered',
  'calls.abandonment_rate',
  'calls.service_level',
  'calls.speed_of_answer',
  'engagements.created',
  'engagements.closed',
  'surveys.csat',
]
