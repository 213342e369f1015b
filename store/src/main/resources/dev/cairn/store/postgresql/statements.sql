-- Named SQL statements that only PostgreSQL runs this way (the rest are in ../statements.sql).

-- name: drop_projection
-- RESTART IDENTITY makes a rebuild assign the same filter_key ids as the first projection did.
TRUNCATE statement_match, statement_ref, filter_key, statement, document, activity, agent_name, attachment,
    statement_attachment, erased_statement RESTART IDENTITY;
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

-- name: page_unfiltered
-- As the common page_unfiltered, without what lies past a page's byte bound: the driver fetches every row of a result
-- at once, so the SQL returns the rows that fit in {max_bytes} and, without its content, the first that does not
-- (it tells the reader there are more). The first row comes whole whatever its size, and the second in any case.
-- octet_length reads a large value's size without its content.
SELECT seq, len, CASE WHEN n = 1 OR before + len <= {max_bytes} THEN json END FROM (
    SELECT s.seq, s.json, octet_length(s.json) AS len, row_number() OVER w AS n,
        sum(octet_length(s.json)) OVER w - octet_length(s.json) AS before
    FROM statement s WHERE s.voided = 0 AND s.seq > ? AND s.seq < ?
    WINDOW w AS (ORDER BY s.seq {dir} ROWS UNBOUNDED PRECEDING) ORDER BY s.seq {dir} LIMIT ?) p
WHERE before <= {max_bytes} OR n <= 2 ORDER BY seq {dir}

-- name: statements_by_seq
-- As the common statements_by_seq, bounded as page_unfiltered is.
SELECT seq, len, CASE WHEN n = 1 OR before + len <= {max_bytes} THEN json END FROM (
    SELECT seq, json, octet_length(json) AS len, row_number() OVER w AS n,
        sum(octet_length(json)) OVER w - octet_length(json) AS before
    FROM statement WHERE seq IN (?) AND voided = 0 WINDOW w AS (ORDER BY seq {dir} ROWS UNBOUNDED PRECEDING)) p
WHERE before <= {max_bytes} OR n <= 2 ORDER BY seq {dir}

