CREATE TABLE `rate_limit_counters` (
	`key` text PRIMARY KEY NOT NULL,
	`window_ms` integer NOT NULL,
	`window_start` integer NOT NULL,
	`current` integer NOT NULL,
	`previous` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `organizations` ADD `rate_limit_per_minute` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `rate_limit_per_day` integer;