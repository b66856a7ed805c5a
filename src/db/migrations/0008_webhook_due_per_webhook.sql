DROP INDEX `webhook_deliveries_due`;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_first` ON `webhook_deliveries` (`webhook_id`,`next_attempt_at`,`lease_until`) WHERE status = 'pending' AND attempt = 1;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_retry` ON `webhook_deliveries` (`webhook_id`,`next_attempt_at`,`lease_until`) WHERE status = 'pending' AND attempt > 1;