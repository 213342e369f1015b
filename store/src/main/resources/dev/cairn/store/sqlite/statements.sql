-- Named SQL statements that only SQLite runs this way (the rest are in ../statements.sql).

-- name: drop_projection
DELETE FROM statement_match;
DELETE FROM statement_match_recent;
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

-- name: upsert_recent_matches
-- The match rows of a small commit, as upsert_matches, into statement_match_recent (SqliteWriterBackend).
INSERT INTO statement_match_recent (entry, block, bits) VALUES {rows}
ON CONFLICT (block, entry) DO UPDATE SET bits = statement_match_recent.bits | excluded.bits

-- name: merge_recent_matches
-- Moves the recent match rows into statement_match in its order, OR-ing each into a stored row (the WHERE lets
-- SQLite parse ON CONFLICT after a SELECT); delete_recent_matches empties the table in the same transaction.
INSERT INTO statement_match (entry, block, bits) SELECT entry, block, bits FROM statement_match_recent WHERE true
ORDER BY entry, block ON CONFLICT (entry, block) DO UPDATE SET bits = statement_match.bits | excluded.bits

-- name: delete_recent_matches
DELETE FROM statement_match_recent

-- name: count_recent_matches
SELECT count(*) FROM statement_match_recent

-- name: recent_match_blocks
-- As match_blocks, from statement_match_recent: a range of blocks, the entry checked in each (the table is small).
SELECT block, bits FROM statement_match_recent WHERE entry = ? AND block {from} ? ORDER BY block {dir} LIMIT ?

-- name: recent_match_blocks_between
-- A further filter's rows from the first to the last block of a chunk (a chunk older than the table's rows finds none
-- at once; the reader keeps those of the chunk's blocks).
SELECT block, bits FROM statement_match_recent WHERE entry = ? AND block BETWEEN ? AND ?

-- name: checksum_statement_match
-- The match index as reads see it: a row of each table OR-ed together.
SELECT entry, block, min(bits) | max(bits) FROM (SELECT entry, block, bits FROM statement_match UNION ALL
SELECT entry, block, bits FROM statement_match_recent) GROUP BY entry, block ORDER BY entry, block

-- name: recent_match_blocks_from
-- As match_blocks_from, from statement_match_recent.
SELECT block, bits FROM statement_match_recent WHERE entry = ? AND block >= ?

-- name: delete_unmatched_filter_key
DELETE FROM filter_key WHERE kind = ? AND value = ?
AND NOT EXISTS (SELECT 1 FROM statement_match m WHERE m.entry = filter_key.id * 2)
AND NOT EXISTS (SELECT 1 FROM statement_match_recent r WHERE r.entry = filter_key.id * 2)

-- name: any_stored_from_below_seq
-- By the key's range (the statements stored before), not by the stored time's index (the statements kept).
SELECT 1 FROM statement WHERE seq < ? AND +stored_ms >= ? LIMIT 1
