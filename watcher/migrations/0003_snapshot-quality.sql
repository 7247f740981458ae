-- Up Migration
-- Quality marks of a snapshot (issue 23, docs/watches.md "Quality marks"). A field the product's own
-- history says should be there but the page did not yield is UNKNOWN (its column stays NULL and its
-- name is listed here), a field whose value a second read past the page cache did not confirm is
-- SUSPECT (its value is kept for audit and listed here). Conditions never fire from either.
-- `quality` is the point's mark as history serves it: 'ok', 'suspect' (an unknown or suspect field),
-- or 'revised' (a later re-parse corrected it). Defaults make every existing row 'ok' without a
-- rewrite (PostgreSQL 11+ stores a constant default in the catalogue).
ALTER TABLE snapshots
  ADD COLUMN unknown_fields text[] NOT NULL DEFAULT '{}',
  ADD COLUMN suspect_fields text[] NOT NULL DEFAULT '{}',
  ADD COLUMN quality text NOT NULL DEFAULT 'ok' CHECK (quality IN ('ok', 'suspect', 'revised'));
-- The marked points of a product, for downsampled history: a bucket with a marked point answers with
-- it (store/snapshots.ts), found here without reading the bucket's other rows. Marked points are
-- rare, so the index is small.
CREATE INDEX snapshots_marked ON snapshots (product_id, at) WHERE quality <> 'ok';

-- Down Migration
DROP INDEX snapshots_marked;
ALTER TABLE snapshots DROP COLUMN quality, DROP COLUMN suspect_fields, DROP COLUMN unknown_fields;
