-- Named SQL statements that only PostgreSQL runs this way (the rest are in ../statements.sql).

-- name: drop_projection
-- RESTART IDENTITY makes a rebuild assign the same filter_key ids as the first projection did.
TRUNCATE statement_match, statement_ref, filter_key, statement, document, activity, agent_name, attachment RESTART IDENTITY;
UPDATE watermark SET log_index = -1, stored_ms = 0, seq = 0 WHERE id = 1

-- name: copy_matches
-- The bulk path of match rows (BinaryCopy): entry (key id and scope), sequence number.
COPY statement_match (entry, seq) FROM STDIN (FORMAT binary)

-- name: copy_statements
-- The bulk path of statement rows (BinaryCopy), in insert_statement's column order.
COPY statement (seq, id, stored_ms, voided, voiding, json, keys) FROM STDIN (FORMAT binary)
