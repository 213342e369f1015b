-- Named SQL statements that only SQLite runs this way (the rest are in ../statements.sql).

-- name: drop_projection
DELETE FROM statement_match;
DELETE FROM statement_ref;
DELETE FROM filter_key;
DELETE FROM statement;
DELETE FROM document;
DELETE FROM activity;
DELETE FROM agent_name;
DELETE FROM attachment;
DELETE FROM statement_attachment;
DELETE FROM erased_statement;
UPDATE watermark SET log_index = -1, stored_ms = 0, seq = 0 WHERE id = 1


-- name: upsert_matches
-- Match rows, {rows} expanded to one '(?, ?, ?)' per row: a row already stored gains the new bits.
INSERT INTO statement_match (entry, block, bits) VALUES {rows}
ON CONFLICT (entry, block) DO UPDATE SET bits = statement_match.bits | excluded.bits
