CREATE TABLE `ticket_comments` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`author_id` text NOT NULL,
	`body` text NOT NULL,
	`public` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ticket_comments_ticket_created` ON `ticket_comments` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `ticket_counters` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`last_number` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `ticket_tags` (
	`ticket_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`tag` text NOT NULL,
	PRIMARY KEY(`ticket_id`, `tag`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_tags_org_tag` ON `ticket_tags` (`organization_id`,`tag`,`ticket_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`number` integer NOT NULL,
	`subject` text NOT NULL,
	`description` text NOT NULL,
	`status` text NOT NULL,
	`priority` integer NOT NULL,
	`type` text,
	`channel` text NOT NULL,
	`requester_name` text,
	`requester_email` text,
	`assignee_id` text,
	`tags` text NOT NULL,
	`custom_fields` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`solved_at` integer,
	`closed_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`assignee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_org_number` ON `tickets` (`organization_id`,`number`);--> statement-breakpoint
CREATE INDEX `tickets_org_created` ON `tickets` (`organization_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_org_updated` ON `tickets` (`organization_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_org_priority` ON `tickets` (`organization_id`,`priority`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_org_status_created` ON `tickets` (`organization_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_org_assignee_created` ON `tickets` (`organization_id`,`assignee_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_status_solved` ON `tickets` (`status`,`solved_at`);