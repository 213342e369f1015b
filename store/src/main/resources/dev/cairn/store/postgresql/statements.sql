-- Named SQL statements that only PostgreSQL runs this way (the rest are in ../statements.sql).

-- name: drop_projection
-- RESTART IDENTITY makes a rebuild assign the same filter_key ids as the first projection did.
TRUNCATE statement_match, statement_ref, filter_key, statement, document, activity, agent_name, attachment RESTART IDENTITY;
UPDATE watermark SET log_index = -1, stored_ms = 0, seq = 0 WHERE id = 1

-- name: copy_matches
-- The bulk path of match rows in blocks no earlier transaction has written (BinaryCopy): entry, block, bits.
COPY statement_match (entry, block, bits) FROM STDIN (FORMAT binary)

-- name: upsert_matches
-- The other match rows as three arrays (entry, block, bits), one statement per flush: a row already stored gains the
-- new bits. Each (entry, block) appears once per call, as ON CONFLICT DO UPDATE requires.
INSERT INTO statement_match (entry, block, bits) SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::bigint[])
ON CONFLICT (entry, block) DO UPDATE SET bits = statement_match.bits | excluded.bits

-- name: copy_statements
-- The bulk path of statement rows (BinaryCopy), in insert_statement's column order.
COPY statement (seq, id, stored_ms, voided, voiding, json, keys) FROM STDIN (FORMAT binary)
