-- 0015: one sender per cluster (issue 27). A worker leases the mails and
-- webhook deliveries it is about to send: claimant is the worker, lease_until
-- when the claim lapses. The claim is an UPDATE of rows picked with FOR
-- UPDATE SKIP LOCKED among those due whose lease is free, so two workers
-- never claim the same row; the worker ends its lease in the transaction that
-- records the attempt, and that UPDATE matches only while the row is still
-- leased to it (lease.go). Both columns are NULL while no worker holds the row.
ALTER TABLE outbox ADD COLUMN claimant text, ADD COLUMN lease_until timestamptz;
ALTER TABLE webhook_deliveries ADD COLUMN claimant text, ADD COLUMN lease_until timestamptz;
