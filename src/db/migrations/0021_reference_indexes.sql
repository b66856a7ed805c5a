-- The columns that name a contact or a ticket from another table (issue 27), each indexed on its own:
-- deleting a contact or ticket finds the records naming it (to let go of it, or to refuse), and both
-- engines check the foreign key of each such column on every delete, which without an index whose
-- first column it is reads the whole table.
CREATE INDEX calls_contact ON calls (contact_id);
--> statement-breakpoint
CREATE INDEX calls_ticket ON calls (ticket_id);
--> statement-breakpoint
CREATE INDEX engagements_contact ON engagements (contact_id);
--> statement-breakpoint
CREATE INDEX engagements_ticket ON engagements (ticket_id);
--> statement-breakpoint
CREATE INDEX survey_responses_contact ON survey_responses (contact_id);
