-- Named SQL statements that both dialects run as they are. A dialect's own statements.sql adds the ones whose SQL
-- differs, and may override any of these by name. Each is loaded once by SqlFile and referred to by its name.

-- name: watermark
SELECT log_index, stored_ms, seq FROM watermark WHERE id = 1

-- name: advance_watermark
UPDATE watermark SET log_index = ?, stored_ms = ?, seq = ? WHERE id = 1 AND log_index = ?

-- name: insert_statement
INSERT INTO statement (seq, id, stored_ms, voided, voiding, json, keys) VALUES (?, ?, ?, ?, ?, ?, ?)

-- name: statement_keys
SELECT seq, voided, voiding, keys FROM statement WHERE id = ?

-- name: update_keys
UPDATE statement SET keys = ? WHERE seq = ?

-- name: referenced_ids
SELECT DISTINCT target_id FROM statement_ref

-- name: referrers
-- The statements whose object is a StatementRef to the given id, with what the projector needs of each.
SELECT s.seq, s.id, s.voided, s.voiding, s.keys FROM statement_ref r JOIN statement s ON s.seq = r.referrer_seq
WHERE r.target_id = ?

-- name: erasure_row
-- A statement an erasure touches, whole: its rows are deleted and, unless removed, added again (StatementRefGraph).
SELECT seq, stored_ms, voided, json, keys FROM statement WHERE id = ?

-- name: delete_statement_row
DELETE FROM statement WHERE seq = ?

-- name: delete_ref
DELETE FROM statement_ref WHERE target_id = ? AND referrer_seq = ?

-- name: delete_statement_attachments
DELETE FROM statement_attachment WHERE statement_id = ?

-- name: statement_attachments
SELECT sha2 FROM statement_attachment WHERE statement_id = ?

-- name: delete_orphan_attachment
-- An attachment's content once no statement's request that carried it is left.
DELETE FROM attachment WHERE sha2 = ? AND NOT EXISTS (SELECT 1 FROM statement_attachment WHERE sha2 = ?)

-- name: delete_person_documents
DELETE FROM document WHERE agent = ?

-- name: delete_agent_names
DELETE FROM agent_name WHERE agent = ?

-- name: delete_agent_name
DELETE FROM agent_name WHERE agent = ? AND name = ?

-- name: delete_filter_key
DELETE FROM filter_key WHERE kind = ? AND value = ?

-- name: all_agent_names
SELECT agent, name FROM agent_name

-- name: all_activity_definitions
SELECT id, definition FROM activity

-- name: named_filter_keys
-- The keys whose value may name a person: agents, activities, verbs and authorities (registrations are UUIDs).
SELECT kind, value FROM filter_key WHERE kind <> ?

-- name: set_voided
UPDATE statement SET voided = 1 WHERE seq = ?

-- name: find_key
SELECT id FROM filter_key WHERE kind = ? AND value = ?

-- name: insert_key
-- The projector assigns ids itself, inside its transaction, so that a replay assigns the same ones (a database
-- sequence would skip the ids of a rolled-back or killed transaction).
INSERT INTO filter_key (id, kind, value) VALUES (?, ?, ?)

-- name: max_key_id
SELECT coalesce(max(id), 0) FROM filter_key

-- name: clear_match_bit
-- A voided statement leaves the match index: its bit goes from the row of each of its entries, in each table of
-- match rows ({table}: MatchBitClear).
UPDATE {table} SET bits = bits & ~CAST(? AS BIGINT) WHERE entry = ? AND block = ?

-- name: delete_empty_match
DELETE FROM {table} WHERE entry = ? AND block = ? AND bits = 0

-- name: insert_ref
INSERT INTO statement_ref (referrer_seq, target_id, voiding) VALUES (?, ?, ?)

-- name: statement_by_id
SELECT s.json, s.stored_ms FROM statement s WHERE s.id = ? AND s.voided = 0

-- name: voided_statement_by_id
SELECT s.json, s.stored_ms FROM statement s WHERE s.id = ? AND s.voided = 1

-- name: first_seq_stored_after
SELECT min(seq) FROM statement WHERE stored_ms > ?

-- name: last_seq_stored_at_or_before
SELECT max(seq) FROM statement WHERE stored_ms <= ?

-- name: insert_credential
INSERT INTO credential (api_key, salt, hash, iterations, scopes, authority, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (api_key) DO NOTHING

-- name: credential_by_key
SELECT salt, hash, iterations, scopes, authority FROM credential WHERE api_key = ?

-- name: count_credentials
SELECT count(*) FROM credential

-- name: statements_by_ids
-- The sequencer's check of ids already stored, voided ones included; '(?)' is expanded to one marker per id
-- (Database.sqlIn).
SELECT id, json FROM statement WHERE id IN (?)

-- name: erased_by_ids
-- The sequencer's check of ids an erasure took out; '(?)' as in statements_by_ids.
SELECT id FROM erased_statement WHERE id IN (?)

-- name: all_statement_ids
-- Every stored id, voided and erased ones included, for the sequencer's in-memory filter of ids that may be stored.
SELECT id FROM statement UNION ALL SELECT id FROM erased_statement

-- name: page_unfiltered
-- {dir} is DESC (newest first) or ASC; the seq bounds are exclusive. Each row's size comes before its content: SQLite's
-- driver steps a row at a time and copies a column into the heap only when asked, so the reader stops at the page's
-- byte bound without taking in the first statement that does not fit; PostgreSQL's override uses {max_bytes}.
SELECT s.seq, length(s.json), s.json FROM statement s WHERE s.voided = 0 AND s.seq > ? AND s.seq < ?
ORDER BY s.seq {dir} LIMIT ?

-- name: match_blocks
-- The rows of one match entry from a block on, in the query's order ({dir}, {from} is <= or >=); a page reads a
-- chunk at a time and stops at the range's far end itself. With both ends in the SQL, PostgreSQL without table
-- statistics guessed a handful of rows and read every row of the entry to sort them.
SELECT block, bits FROM statement_match WHERE entry = ? AND block {from} ? ORDER BY block {dir} LIMIT ?

-- name: match_blocks_at
-- A further filter's rows at the blocks the first filter's chunk holds; '(?)' is expanded to one marker per block
-- (Database.sqlIn).
SELECT block, bits FROM statement_match WHERE entry = ? AND block IN (?)

-- name: statements_by_seq
-- A page's statements; '(?)' is expanded to one marker per sequence number (Database.sqlIn). The voided check
-- covers a statement voided between reading the match rows and reading it. As page_unfiltered for the byte bound.
SELECT seq, length(json), json FROM statement WHERE seq IN (?) AND voided = 0 ORDER BY seq {dir}

-- name: checksum_statement
SELECT seq, id, stored_ms, voided, voiding, json, keys FROM statement ORDER BY seq

-- name: checksum_filter_key
SELECT id, kind, value FROM filter_key ORDER BY id

-- name: checksum_statement_match
SELECT entry, block, bits FROM statement_match ORDER BY entry, block

-- name: checksum_statement_ref
SELECT target_id, referrer_seq, voiding FROM statement_ref ORDER BY target_id, referrer_seq

-- name: checksum_watermark
SELECT log_index, stored_ms, seq FROM watermark

-- name: checksum_document
SELECT kind, activity_id, agent, registration, doc_id, content_type, content, etag, updated_ms FROM document
ORDER BY kind, activity_id, agent, registration, doc_id

-- name: checksum_activity
SELECT id, definition FROM activity ORDER BY id

-- name: checksum_attachment
SELECT sha2, content_type, content FROM attachment ORDER BY sha2

-- name: checksum_statement_attachment
SELECT statement_id, sha2 FROM statement_attachment ORDER BY statement_id, sha2

-- name: checksum_agent_name
SELECT agent, name FROM agent_name ORDER BY agent, name

-- name: checksum_erased_statement
SELECT id FROM erased_statement ORDER BY id

-- name: insert_erased_statement
INSERT INTO erased_statement (id) VALUES (?) ON CONFLICT (id) DO NOTHING

-- name: put_document
INSERT INTO document (kind, activity_id, agent, registration, doc_id, content_type, content, etag, updated_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (kind, activity_id, agent, registration, doc_id) DO UPDATE SET content_type = excluded.content_type,
    content = excluded.content, etag = excluded.etag, updated_ms = excluded.updated_ms

-- name: delete_document
DELETE FROM document WHERE kind = ? AND activity_id = ? AND agent = ? AND registration = ? AND doc_id = ?

-- name: delete_documents
-- Every document of one resource, activity and agent; the registration only narrows it when not ''.
DELETE FROM document WHERE kind = ? AND activity_id = ? AND agent = ? AND (? = '' OR registration = ?)

-- name: document
SELECT content_type, content, etag, updated_ms FROM document
WHERE kind = ? AND activity_id = ? AND agent = ? AND registration = ? AND doc_id = ?

-- name: document_ids
-- The ids of one resource, activity and agent (the registration narrows it when not ''), updated after a time.
SELECT DISTINCT doc_id, updated_ms FROM document
WHERE kind = ? AND activity_id = ? AND agent = ? AND (? = '' OR registration = ?) AND updated_ms > ?
ORDER BY doc_id

-- name: activity_definition
SELECT definition FROM activity WHERE id = ?

-- name: put_activity_definition
INSERT INTO activity (id, definition) VALUES (?, ?)
ON CONFLICT (id) DO UPDATE SET definition = excluded.definition

-- name: add_agent_name
INSERT INTO agent_name (agent, name) VALUES (?, ?) ON CONFLICT (agent, name) DO NOTHING

-- name: agent_names
SELECT name FROM agent_name WHERE agent = ? ORDER BY name

-- name: put_attachment
-- Attachments are named by the SHA-2 of their content, so a second copy changes nothing.
INSERT INTO attachment (sha2, content_type, content) VALUES (?, ?, ?) ON CONFLICT (sha2) DO NOTHING

-- name: put_statement_attachment
-- A content the statement's own request carried (a part matching one of its attachments' sha2).
INSERT INTO statement_attachment (statement_id, sha2) VALUES (?, ?) ON CONFLICT (statement_id, sha2) DO NOTHING

-- name: carried_attachments
-- The contents each statement's own request carried; '(?)' is expanded to one marker per statement id.
SELECT statement_id, sha2 FROM statement_attachment WHERE statement_id IN (?)

-- name: attachments_by_sha2
-- '(?)' is expanded to one marker per hash (Database.sqlIn).
SELECT sha2, content_type, content FROM attachment WHERE sha2 IN (?)

-- name: attachment_sizes_by_sha2
-- The bytes of each attachment, for a page's byte bound; '(?)' as in attachments_by_sha2.
SELECT sha2, length(content) FROM attachment WHERE sha2 IN (?)

-- name: list_credentials
SELECT api_key, scopes, authority, created_ms FROM credential ORDER BY created_ms, api_key

-- name: delete_credential
DELETE FROM credential WHERE api_key = ?

-- name: filter_key_ids_of_kind
SELECT id FROM filter_key WHERE kind = ?

-- name: all_filter_keys
-- The projector's key cache, filled whenever every stored key fits in it.
SELECT id, kind, value FROM filter_key

-- name: insert_forward_target
INSERT INTO forward_target (name, kind, url, credential, secret, filter, batch_size, max_delay_ms, paused, log_position,
    created_ms, xapi_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: list_forward_targets
SELECT name, kind, url, credential, secret, filter, batch_size, max_delay_ms, paused, log_position, xapi_version
FROM forward_target ORDER BY created_ms, name

-- name: define_forward_target
UPDATE forward_target SET kind = ?, url = ?, credential = ?, secret = ?, filter = ?, batch_size = ?, max_delay_ms = ?,
    xapi_version = ?
WHERE name = ?

-- name: pause_forward_target
UPDATE forward_target SET paused = ? WHERE name = ?

-- name: delete_forward_target
DELETE FROM forward_target WHERE name = ?

-- name: delete_forward_dead_letters
DELETE FROM forward_dead_letter WHERE target = ?

-- name: start_forward_cursor
UPDATE forward_target SET log_position = ? WHERE name = ? AND log_position IS NULL

-- name: advance_forward_cursor
UPDATE forward_target SET log_position = ? WHERE name = ? AND log_position = ?

-- name: insert_forward_dead_letter
INSERT INTO forward_dead_letter (target, last_position, statements, body, content_type, status, response, at_ms)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)

-- name: list_forward_dead_letters
SELECT id, target, last_position, statements, status, response, at_ms FROM forward_dead_letter
WHERE target = ? AND id > ? ORDER BY id LIMIT ?

-- name: forward_dead_letter_by_id
SELECT id, target, last_position, statements, status, response, at_ms, body, content_type FROM forward_dead_letter
WHERE id = ?

-- name: delete_forward_dead_letter
DELETE FROM forward_dead_letter WHERE id = ?

-- name: update_forward_dead_letter
UPDATE forward_dead_letter SET status = ?, response = ?, at_ms = ? WHERE id = ?

-- name: forward_dead_letter_bodies
SELECT id, body, at_ms FROM forward_dead_letter ORDER BY id

-- name: insert_erasure
INSERT INTO erasure (at_ms, subject, statements_removed, statements_rewritten, document_entries, log_entries,
    log_bytes, millis, erasure_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)

-- name: erasure_recorded
SELECT 1 FROM erasure WHERE erasure_id = ?

-- name: erasure_took
UPDATE erasure SET millis = ? WHERE erasure_id = ?

-- name: list_erasures
SELECT id, at_ms, subject, statements_removed, statements_rewritten, document_entries, log_entries, log_bytes, millis
FROM erasure ORDER BY id

-- name: insert_erasure_request
INSERT INTO erasure_request (erasure_id, after_position, asked_ms, request, agent_keys, status)
VALUES (?, ?, ?, ?, ?, 'pending')

-- name: pending_erasure_requests
SELECT erasure_id, after_position, request FROM erasure_request WHERE status = 'pending' ORDER BY asked_ms, erasure_id

-- name: finish_erasure_request
UPDATE erasure_request SET status = ?, why = ?, request = NULL, agent_keys = NULL WHERE erasure_id = ?

-- name: erasure_request_status
SELECT status, why FROM erasure_request WHERE erasure_id = ?

-- name: erasure_by_id
SELECT id, at_ms, subject, statements_removed, statements_rewritten, document_entries, log_entries, log_bytes, millis
FROM erasure WHERE erasure_id = ?

-- name: forget_erasure_request
UPDATE erasure_request SET request = NULL, agent_keys = NULL WHERE erasure_id = ?

-- name: count_erasures
SELECT count(*) FROM erasure

-- name: agents_being_erased
SELECT agent_keys FROM erasure_request WHERE status = 'pending' AND agent_keys IS NOT NULL

-- Retention (ErasureStore.keptFrom): each reads the statements stored before a time, by index, never the ones kept.
-- name: last_seq_stored_before
-- seq + 0: max(seq) is planned as a backward walk of the key that reads every statement kept first (SQLite without
-- statistics, which Cairn never gathers; PostgreSQL): this reads the index of the stored times, the removed ones only.
SELECT max(seq + 0) FROM statement WHERE stored_ms < ?

-- name: any_stored_from_below_seq
SELECT 1 FROM statement WHERE seq < ? AND stored_ms >= ? LIMIT 1

-- name: any_stored_from
SELECT 1 FROM statement WHERE stored_ms >= ? LIMIT 1

-- name: first_seq_after
SELECT min(seq) FROM statement WHERE seq > ?

-- name: any_stored_before
SELECT 1 FROM statement WHERE stored_ms < ? LIMIT 1

-- name: filter_key_id
SELECT id FROM filter_key WHERE kind = ? AND value = ?

-- name: match_blocks_from
SELECT block, bits FROM statement_match WHERE entry = ? AND block >= ?

-- name: statement_json_at
SELECT json FROM statement WHERE seq = ?

-- name: voided_statements_from
SELECT json FROM statement WHERE voided = 1 AND seq >= ?

-- name: delete_unmatched_filter_key
DELETE FROM filter_key WHERE kind = ? AND value = ?
AND NOT EXISTS (SELECT 1 FROM statement_match m WHERE m.entry = filter_key.id * 2)
