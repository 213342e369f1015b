-- Schema migrations for SQLite, applied in order by Migrations; each name is the version it brings the schema to.

-- name: 1
CREATE TABLE statement (
    seq       INTEGER PRIMARY KEY,   -- position in log order, assigned by the projector
    id        TEXT    NOT NULL UNIQUE,
    stored_ms INTEGER NOT NULL,      -- never decreases with seq
    voided    INTEGER NOT NULL DEFAULT 0,
    voiding   INTEGER NOT NULL DEFAULT 0, -- 1 when this statement voids another (it can never be voided)
    json      BLOB    NOT NULL,      -- the exact stored form, returned by format=exact without parsing
    keys      BLOB    NOT NULL       -- its match rows, own and inherited through a StatementRef (MatchKeys)
);
CREATE INDEX statement_stored ON statement (stored_ms);
CREATE TABLE filter_key (
    id    INTEGER PRIMARY KEY,
    kind  INTEGER NOT NULL,          -- FilterKey.Kind ordinal
    value TEXT    NOT NULL,
    UNIQUE (kind, value)
);
-- Every statement query reads one ordered range of this table. Scope 0 holds every match of a key (what verb,
-- registration and related_agents/related_activities read); scope 1 repeats the narrow matches of agent and
-- activity keys (actor and object), which the plain agent/activity filters read.
CREATE TABLE statement_match (
    key_id INTEGER NOT NULL,
    scope  INTEGER NOT NULL,
    seq    INTEGER NOT NULL,
    PRIMARY KEY (key_id, scope, seq)
) WITHOUT ROWID;
CREATE TABLE statement_ref (
    referrer_seq INTEGER NOT NULL,
    target_id    TEXT    NOT NULL,
    voiding      INTEGER NOT NULL,
    PRIMARY KEY (target_id, referrer_seq)
) WITHOUT ROWID;
CREATE TABLE watermark (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    log_index INTEGER NOT NULL,      -- the last log entry applied; -1 before the first
    stored_ms INTEGER NOT NULL,      -- the stored time of the last statement applied
    seq       INTEGER NOT NULL       -- the last statement sequence number assigned
);
INSERT INTO watermark (id, log_index, stored_ms, seq) VALUES (1, -1, 0, 0);
CREATE TABLE credential (
    api_key    TEXT    PRIMARY KEY,
    salt       BLOB    NOT NULL,
    hash       BLOB    NOT NULL,
    iterations INTEGER NOT NULL,
    scopes     TEXT    NOT NULL,
    authority  BLOB    NOT NULL,
    created_ms INTEGER NOT NULL
);

-- name: 2
-- Documents (State, Activity Profile, Agent Profile) as the log's last event left them; unused key parts are ''.
CREATE TABLE document (
    kind         INTEGER NOT NULL,   -- DocumentKey.Kind ordinal
    activity_id  TEXT    NOT NULL,
    agent        TEXT    NOT NULL,   -- Ifi.key() of the agent
    registration TEXT    NOT NULL,
    doc_id       TEXT    NOT NULL,
    content_type TEXT    NOT NULL,
    content      BLOB    NOT NULL,
    etag         TEXT    NOT NULL,   -- SHA-1 of the content, lowercase hex
    updated_ms   INTEGER NOT NULL,
    PRIMARY KEY (kind, activity_id, agent, registration, doc_id)
);
-- The canonical definition of each activity, merged from the statements that define it (JSON object).
CREATE TABLE activity (
    id         TEXT PRIMARY KEY,
    definition BLOB NOT NULL
);
-- The names seen with each agent IFI, for the Person object of /agents.
CREATE TABLE agent_name (
    agent TEXT NOT NULL,
    name  TEXT NOT NULL,
    PRIMARY KEY (agent, name)
);

-- name: 3
-- The format=ids form of each statement, computed once by the projector. Rows projected before this version hold
-- '' until the next replay; the reader computes their ids form from json meanwhile.
ALTER TABLE statement ADD COLUMN ids BLOB NOT NULL DEFAULT x'';
-- Attachment contents by SHA-2 (hex, as the statements' sha2 names them); one row per distinct content.
CREATE TABLE attachment (
    sha2         TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    content      BLOB NOT NULL
);

-- name: 4
-- The format=ids form is built by the query side from the exact form when a client asks for it (rarely): storing
-- it made every statement row ~70% larger and cost the projector a third of its preparation work.
ALTER TABLE statement DROP COLUMN ids;

-- name: 5
-- The match index keeps 64 sequence numbers to a row: (entry, block) holds a bit for each statement
-- block * 64 + i that matches the entry, where entry = key_id * 2 + scope (MatchKeys' entry). A dozen one-row
-- matches per statement cost the projector most of its writes; a key seen several times in 64 consecutive
-- statements (a verb, an authority, a course, a session's learner and registration) now takes one row for them
-- all, and a page of a common key reads a few rows. Rows with no bit set are deleted: every row read matches.
CREATE TABLE statement_match_block (
    entry INTEGER NOT NULL,
    block INTEGER NOT NULL,          -- seq >> 6
    bits  INTEGER NOT NULL,          -- bit (seq & 63) set for each matching seq; never 0
    PRIMARY KEY (entry, block)
) WITHOUT ROWID;
-- Each seq appears once per (key, scope), so the sum of its bits is their OR (SQLite has no bitwise aggregate).
INSERT INTO statement_match_block (entry, block, bits)
SELECT key_id * 2 + scope, seq >> 6, sum(1 << (seq & 63)) FROM statement_match GROUP BY key_id, scope, seq >> 6;
DROP TABLE statement_match;
ALTER TABLE statement_match_block RENAME TO statement_match;

-- name: 6
-- Until this version a StatementRef inherited every key of its target, its authority's too, so statements/read/mine
-- returned another credential's StatementRef (or voiding statement) to a statement of yours. The projector now keeps
-- authority keys to the statement itself; this clears, at every stored referrer, the bits of the authorities that are
-- not its own (Cairn stamps an authority as the account of a credential). The referrers' keys blobs keep the
-- inherited entries, which the projector no longer copies and a replay drops.
CREATE TEMP TABLE referrer_authority AS
SELECT DISTINCT r.referrer_seq AS seq, r.referrer_seq >> 6 AS block, (SELECT k.id * 2 FROM filter_key k
    WHERE k.kind = 4 AND k.value = 'account:' || json_extract(CAST(s.json AS TEXT), '$.authority.account.name') || '@'
        || json_extract(CAST(s.json AS TEXT), '$.authority.account.homePage')) AS own
FROM statement_ref r JOIN statement s ON s.seq = r.referrer_seq;
CREATE INDEX temp.referrer_authority_block ON referrer_authority (block);
-- Each seq appears once, so the sum of their bits is their OR.
UPDATE statement_match SET bits = bits & ~coalesce((SELECT sum(1 << (a.seq & 63)) FROM referrer_authority a
    WHERE a.block = statement_match.block AND (a.own IS NULL OR a.own <> statement_match.entry)), 0)
WHERE entry IN (SELECT id * 2 FROM filter_key WHERE kind = 4) AND block IN (SELECT block FROM referrer_authority);
DELETE FROM statement_match WHERE bits = 0 AND block IN (SELECT block FROM referrer_authority);
DROP TABLE referrer_authority

-- name: 7
-- Which attachment contents each statement's own request carried. Contents are stored once by their SHA-2, and a
-- statement may name one with a fileUrl and no part, so until this version a statement naming another credential's
-- content by its hash returned that content with attachments=true (to a statements/read/mine credential too). A
-- statement now returns the contents its request carried and no other. Rows for the statements stored before are
-- made here as before: each content stored under a hash its JSON names ('cairn replay' makes them exactly).
CREATE TABLE statement_attachment (
    statement_id TEXT NOT NULL,
    sha2         TEXT NOT NULL,
    PRIMARY KEY (statement_id, sha2)
) WITHOUT ROWID;
INSERT OR IGNORE INTO statement_attachment (statement_id, sha2)
SELECT s.id, lower(json_extract(a.value, '$.sha2'))
FROM statement s, json_each(CAST(s.json AS TEXT), '$.attachments') a
WHERE EXISTS (SELECT 1 FROM attachment) AND instr(s.json, CAST('"attachments"' AS BLOB)) > 0 AND lower(json_extract(a.value, '$.sha2')) IN (SELECT sha2 FROM attachment);
INSERT OR IGNORE INTO statement_attachment (statement_id, sha2)
SELECT s.id, lower(json_extract(a.value, '$.sha2'))
FROM statement s, json_each(CAST(s.json AS TEXT), '$.object.attachments') a
WHERE EXISTS (SELECT 1 FROM attachment) AND instr(s.json, CAST('"attachments"' AS BLOB)) > 0 AND lower(json_extract(a.value, '$.sha2')) IN (SELECT sha2 FROM attachment)

-- name: 8
-- Forwarding (issue 21): the targets statements are forwarded to, each with its cursor in the log (log_position:
-- the last entry it has delivered or passed over; NULL until its forwarder starts it at the log's end), and the
-- batches a target refused with a 4xx (dead letters), kept with its answer until retried or dropped. Not derived
-- from the log: replay leaves these tables alone.
CREATE TABLE forward_target (
    name         TEXT    PRIMARY KEY,
    kind         TEXT    NOT NULL,
    url          TEXT    NOT NULL,
    credential   TEXT,
    secret       TEXT,
    filter       TEXT    NOT NULL,
    batch_size   INTEGER NOT NULL,
    max_delay_ms INTEGER NOT NULL,
    paused       INTEGER NOT NULL,
    log_position INTEGER,
    created_ms   INTEGER NOT NULL
);
CREATE TABLE forward_dead_letter (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    target         TEXT    NOT NULL,
    last_position  INTEGER NOT NULL,
    statements     INTEGER NOT NULL,
    body           BLOB    NOT NULL,
    status         INTEGER NOT NULL,
    response       TEXT    NOT NULL,
    at_ms          INTEGER NOT NULL
);
CREATE INDEX forward_dead_letter_target ON forward_dead_letter (target, id)

-- name: 9
-- Forwarding sends the contents of attachments that came with their statements to LRS targets, as multipart/mixed:
-- a dead letter keeps the Content-Type it was POSTed with, so that a retry sends it again as it was.
ALTER TABLE forward_dead_letter ADD COLUMN content_type TEXT NOT NULL DEFAULT 'application/json'

-- name: 10
-- Erasures (issue 22): what each one erased, for the operator's audit, without the erased personal data (a person
-- is recorded as the SHA-256 of their IFI key). Not derived from the log: replay keeps these rows.
CREATE TABLE erasure (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    at_ms               INTEGER NOT NULL,
    subject             TEXT    NOT NULL,
    statements_removed  INTEGER NOT NULL,
    statements_rewritten INTEGER NOT NULL,
    document_entries    INTEGER NOT NULL,
    log_entries         INTEGER NOT NULL,
    log_bytes           INTEGER NOT NULL,
    millis              INTEGER NOT NULL
)

-- name: 11
-- The ids of statements an erasure took out (issue 22): a client that sends one again gets 409 statement.erased, so
-- a retry queue cannot bring erased data back. Derived from the log's tombstones like every projected table (a store
-- erased before this version gets them from 'cairn replay').
CREATE TABLE erased_statement (
    id TEXT PRIMARY KEY
) WITHOUT ROWID

-- name: 12
-- Forwarding: the xAPI version an lrs target speaks (its X-Experience-API-Version); NULL for the server's own.
ALTER TABLE forward_target ADD COLUMN xapi_version TEXT

-- name: 13
-- The match rows of small commits (a few statements each), kept in block order so that a commit adds its rows at the
-- end of this small table instead of one page of statement_match per match entry; SqliteWriterBackend merges them
-- into statement_match in bulk, and every read takes both tables (OR-ing a row found in each).
CREATE TABLE statement_match_recent (
    block INTEGER NOT NULL,
    entry INTEGER NOT NULL,
    bits  INTEGER NOT NULL,
    PRIMARY KEY (block, entry)
) WITHOUT ROWID

-- name: 14
-- The erasure's own id (the one its placeholder agent names), recorded in the transaction that changes the tables, so
-- that a 'cairn erase' run again after a kill knows the tables are done and finishes only the log's rewrite.
ALTER TABLE erasure ADD COLUMN erasure_id TEXT

-- name: 15
-- Erasures asked of a running Cairn (POST /admin/erasures), for the projector to run between two of its transactions
-- once its watermark has passed after_position (everything acknowledged before the request). The request, which names
-- the people, and agent_keys (their IFI keys, each as length:key, for the sequencer, which holds back merges into their
-- documents meanwhile) are set to NULL once the erasure has run; status says what became of it: pending, erased,
-- nothing (no match), offline (only 'cairn erase' can run it; why says why) or failed. A work queue, not derived from
-- the log.
CREATE TABLE erasure_request (
    erasure_id     TEXT    PRIMARY KEY,
    after_position INTEGER NOT NULL,
    asked_ms       INTEGER NOT NULL,
    request        BLOB,
    agent_keys     TEXT,
    status         TEXT    NOT NULL,
    why            TEXT
)

-- name: 16
-- A retention period or an erasure by id keeps the names of the agents a statement it keeps names, a voided one too
-- (a replay projects its names), and voided statements leave the match index: they are found by this index instead.
CREATE INDEX statement_voided ON statement (seq) WHERE voided = 1
