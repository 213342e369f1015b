package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's statement_match_recent (SqliteWriterBackend): the match rows of small commits wait there and are merged into
 * statement_match in bulk; the match index as reads and a replay see it is the same as if every row had gone
 * straight into statement_match.
 */
class RecentMatchesTest {
    private static final FilterKey VOIDED = FilterKey.verb("http://adlnet.gov/expapi/verbs/voided");

    @TempDir
    Path dir;

    /**
     * A read runs a query per table on an autocommit connection, so a merge can commit between the two: reading
     * statement_match first missed the rows the merge moved (read 437 times in 8 s of this test before the fix).
     */
    @Test
    void aReadWhileMergesCommitFindsEveryCommittedStatement() throws Exception {
        try (TestDatabase t = TestDatabase.create("sqlite", dir); Database db = Database.open(t.url())) {
            AtomicLong committed = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Exception> failed = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try (Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
                    c.setAutoCommit(false);
                    PendingMatches pending = new PendingMatches(backend);
                    for (long seq = 1; !stop.get(); seq++) {
                        pending.add(2, seq); // the entry read
                        for (int e = 0; e < 30; e++) {
                            pending.add(100 + e, seq); // others: a merge every ~66 commits
                        }
                        pending.flush(-1);
                        c.commit();
                        backend.afterCommit();
                        committed.set(seq);
                    }
                } catch (Exception e) {
                    failed.set(e);
                }
            });
            writer.start();
            long reads = 0;
            long missed = 0;
            long deadline = System.nanoTime() + 3_000_000_000L;
            try (Connection r = db.reader()) {
                while (System.nanoTime() < deadline && failed.get() == null) {
                    long last = committed.get();
                    if (last < 10) {
                        Thread.onSpinWait();
                        continue;
                    }
                    long[] got = MatchScan.seqs(r, db, List.of(2L), 0, last + 1, false, 10);
                    reads++;
                    if (got.length != 10 || got[0] != last) {
                        missed++;
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertEquals(null, failed.get(), "the writer failed");
            assertEquals(0, missed, "reads (of " + reads + ", " + committed.get() + " commits) that missed committed"
                    + " statements");
        }
    }

    /**
     * The same statements (StatementRefs to earlier and later ones, voidings) committed one at a time, with some
     * transactions rolled back on the way, and in one commit: the same statement and match tables.
     */
    @Test
    void statementsCommittedOneAtATimeGiveTheMatchIndexOfOneCommit() {
        Random random = new Random(5);
        int n = 3000;
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(new UUID(7, i + 1));
        }
        List<ProjectedStatement> statements = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<FilterKey, Boolean> keys = new LinkedHashMap<>();
            UUID ref = null;
            boolean voiding = false;
            int kind = random.nextInt(10);
            if (kind == 0) { // voids a statement before or after it
                keys.put(VOIDED, true);
                ref = ids.get(random.nextInt(n));
                voiding = true;
            } else {
                keys.put(FilterKey.verb("http://example.com/verbs/" + random.nextInt(8)), true);
                keys.put(FilterKey.activity("http://example.com/activities/" + random.nextInt(40)), true);
                keys.put(FilterKey.activity("http://example.com/parents/" + random.nextInt(200)), false);
                if (kind <= 2) { // refers to a statement before or after it
                    ref = ids.get(random.nextInt(n));
                }
            }
            keys.put(new FilterKey(FilterKey.Kind.AUTHORITY, "mbox:mailto:a" + random.nextInt(2) + "@example.com"),
                    true);
            UUID id = ids.get(i);
            statements.add(new ProjectedStatement(id, 1_000 + i, ("{\"id\":\"" + id + "\"}")
                    .getBytes(StandardCharsets.UTF_8), new FilterKeys(keys, ref), voiding));
        }
        Map<String, String> oneAtATime;
        try (TestDatabase t = TestDatabase.create("sqlite", dir); Database db = Database.open(t.url());
             ProjectionWriter w = new ProjectionWriter(db)) {
            Random failures = new Random(9);
            for (int i = 0; i < n; i++) {
                if (failures.nextInt(20) == 0) { // a transaction that fails after a few statements
                    for (int j = i; j < Math.min(n, i + 1 + failures.nextInt(300)); j++) {
                        w.add(statements.get(j));
                    }
                    w.rollback();
                }
                w.add(statements.get(i));
                w.commit(i + 1);
            }
            oneAtATime = ProjectionChecksum.of(db);
        }
        Map<String, String> together;
        try (TestDatabase t = TestDatabase.create("sqlite", dir); Database db = Database.open(t.url());
             ProjectionWriter w = new ProjectionWriter(db)) {
            for (ProjectedStatement s : statements) {
                w.add(s);
            }
            w.commit(n);
            together = ProjectionChecksum.of(db);
        }
        assertEquals(together.get("statement"), oneAtATime.get("statement"));
        assertEquals(together.get("statement_match"), oneAtATime.get("statement_match"));
    }

    /** Once the writer has committed nothing for a while, the recent rows are merged: reads at rest take one table. */
    @Test
    void theRecentRowsAreMergedOnceTheWriterIsIdle() throws Exception {
        try (TestDatabase t = TestDatabase.create("sqlite", dir); Database db = Database.open(t.url());
             Connection c = db.newWriter(); WriterBackend backend = db.dialect().writerBackend(db, c)) {
            c.setAutoCommit(false);
            PendingMatches pending = new PendingMatches(backend);
            for (long seq = 1; seq <= 100; seq++) {
                pending.add(2, seq);
            }
            pending.flush(-1);
            c.commit();
            backend.afterCommit();
            assertEquals(List.of(0L, 2L), rowCounts(db), "a small commit's rows wait in statement_match_recent");
            long deadline = System.nanoTime() + 4 * WalCheckpointer.IDLE_NANOS;
            while (rowCounts(db).get(0) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(List.of(2L, 0L), rowCounts(db), "merged once idle");
            try (Connection r = db.reader()) {
                assertEquals(100, MatchScan.seqs(r, db, List.of(2L), 0, Long.MAX_VALUE, true, 1000).length);
            }
        }
    }

    /** The rows of statement_match and of statement_match_recent now. */
    private static List<Long> rowCounts(Database db) throws Exception {
        try (Connection c = db.reader(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM statement_match),"
                     + " (SELECT count(*) FROM statement_match_recent)")) {
            rs.next();
            return List.of(rs.getLong(1), rs.getLong(2));
        }
    }
}
