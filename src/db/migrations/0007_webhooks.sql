CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`attempt` integer NOT NULL,
	`trigger` text NOT NULL,
	`status` text NOT NULL,
	`next_attempt_at` integer,
	`lease_until` integer,
	`response_code` integer,
	`response_time_ms` integer,
	`response_body` text,
	`error_class` text,
	`error_message` text,
	`delivered_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_created` ON `webhook_deliveries` (`webhook_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret_sealed` text NOT NULL,
	`description` text,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`disabled_at` integer,
	`consecutive_failures` integer NOT NULL,
	`failing_since` integer,
	`last_success_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhooks_org_created` ON `webhooks` (`organization_id`,`created_at`,`id`);