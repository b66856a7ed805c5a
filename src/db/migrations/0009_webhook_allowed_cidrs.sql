CREATE TABLE `webhook_allowed_cidrs` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`cidrs` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
