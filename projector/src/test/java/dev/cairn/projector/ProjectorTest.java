package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.BadLogEntryException;
import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.FencedException;
import dev.cairn.store.KeyFilter;
import dev.cairn.store.ProjectionChecksum;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.store.TestDatabase;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.FilterKey;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ProjectorTest extends DatabaseOnEachDialect {
    private static final String COMPLETED = "http://adlnet.gov/expapi/verbs/completed";

    private static StoredStatement statement(UUID id, long stored, String verb, String object) {
        String json = "{\"id\":\"" + id + "\",\"stored\":\"2026-01-01T00:00:00.000Z\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"" + verb + "\"},\"object\":" + object + "}";
        return new StoredStatement(id, stored, json.getBytes(StandardCharsets.UTF_8));
    }

    private static String activity(String iri) {
        return "{\"id\":\"" + iri + "\"}";
    }

    private static String ref(UUID target) {
        return "{\"objectType\":\"StatementRef\",\"id\":\"" + target + "\"}";
    }

    private Database db() {
        return Database.open(database.url());
    }

    private static int count(StatementReader reader, String verb) {
        return reader.page(new StatementQuery(List.of(new KeyFilter(FilterKey.verb(verb), false)), null, null, 100, false, 0))
                .statements().size();
    }

    @Test
    void appliesWhatTheLogHoldsAndMovesTheWatermark() {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            long index = appender.append(new StatementsStored(List.of(
                    statement(UUID.randomUUID(), 1, COMPLETED, activity("http://example.com/a")),
                    statement(UUID.randomUUID(), 2, COMPLETED, activity("http://example.com/b")))));
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                assertEquals(1, projector.doWork());
                assertEquals(0, projector.doWork());
            }
            assertEquals(index, db.watermark().logIndex());
            assertEquals(2, db.watermark().seq());
            assertEquals(2, count(new StatementReader(db), COMPLETED));
        }
    }

    @Test
    void aPassAtTheLogsEndReadsOnceRatherThanAFullReadAhead() {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            long index = 0;
            for (int i = 0; i < 100; i++) { // 1,000 statements: chunks of 256, read ahead
                List<StoredStatement> ten = new java.util.ArrayList<>();
                for (int k = 0; k < 10; k++) {
                    ten.add(statement(UUID.randomUUID(), i, COMPLETED, activity("http://example.com/" + i)));
                }
                index = appender.append(new StatementsStored(ten));
            }
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 10_000)) {
                assertEquals(100, projector.doWork());
                assertTrue(projector.readsStarted() > 4, "a log with more entries is read ahead");
                assertEquals(index, db.watermark().logIndex());
                long before = projector.readsStarted();
                for (int pass = 0; pass < 50; pass++) {
                    assertEquals(0, projector.doWork());
                }
                // Each pass looks once, after the reads left in flight when the log's end was met have come back.
                assertTrue(projector.readsStarted() - before <= 50 + 1, (projector.readsStarted() - before) + " reads");
            }
        }
    }

    @Test
    void aSecondProjectorOnTheSameDatabaseIsFenced() {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector first = new Projector(log, new ProjectionWriter(db), tracker, 100);
                 Projector second = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                appender.append(new StatementsStored(List.of(statement(UUID.randomUUID(), 1, COMPLETED, activity("http://example.com/a")))));
                appender.sync();
                assertEquals(1, first.doWork());
                assertThrows(FencedException.class, second::doWork);
            }
            assertEquals(1, db.watermark().seq());
        }
    }

    @Test
    void aVoidingStatementStoredBeforeItsTargetVoidsTheTargetOnArrival() {
        UUID target = UUID.randomUUID();
        UUID voiding = UUID.randomUUID();
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            appender.append(new StatementsStored(List.of(statement(voiding, 1,
                    "http://adlnet.gov/expapi/verbs/voided", ref(target)))));
            appender.append(new StatementsStored(List.of(statement(target, 2, COMPLETED, activity("http://example.com/a")))));
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                while (projector.doWork() > 0) {
                    Thread.onSpinWait();
                }
            }
            StatementReader reader = new StatementReader(db);
            assertTrue(reader.byId(target).isEmpty());
            assertTrue(reader.voidedById(target).isPresent());
            // The voiding statement still matches through its target (Comm 2.1.4); the target does not.
            List<byte[]> page = reader.page(new StatementQuery(List.of(new KeyFilter(FilterKey.verb(COMPLETED), false)),
                    null, null, 100, false, 0)).statements();
            assertEquals(1, page.size());
            assertTrue(new String(page.get(0), StandardCharsets.UTF_8).contains(voiding.toString()));
        }
    }

    @Test
    void aVoidingStatementCannotBeVoided() {
        UUID target = UUID.randomUUID();
        UUID voiding = UUID.randomUUID();
        String voided = "http://adlnet.gov/expapi/verbs/voided";
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            appender.append(new StatementsStored(List.of(
                    statement(target, 1, COMPLETED, activity("http://example.com/a")),
                    statement(voiding, 2, voided, ref(target)),
                    statement(UUID.randomUUID(), 3, voided, ref(voiding)))));
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                projector.doWork();
            }
            StatementReader reader = new StatementReader(db);
            assertTrue(reader.byId(voiding).isPresent());
            assertTrue(reader.voidedById(target).isPresent());
        }
    }

    /** A statement by Ada under {@code actorName} that gives activity a the name {@code activityName}. */
    private static StoredStatement naming(long stored, String actorName, String activityName) {
        UUID id = UUID.randomUUID();
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"name\":\"" + actorName + "\",\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"" + COMPLETED + "\"},\"object\":{\"id\":\"http://example.com/a\","
                + "\"definition\":{\"name\":{\"en-US\":\"" + activityName + "\"}}}}";
        return new StoredStatement(id, stored, json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * An entry the projector cannot apply (here a statement that does not parse, as a damaged entry of format 1,
     * which has no checksum, can hold): what precedes it is committed, and the projector stops there with the index,
     * every time it is asked, instead of rolling back and retrying forever.
     */
    @Test
    void aBadEntryStopsTheProjectorAfterCommittingWhatPrecedesIt() throws Exception {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            long good = appender.append(new StatementsStored(List.of(statement(UUID.randomUUID(), 1, COMPLETED,
                    activity("http://example.com/a")))));
            UUID id = UUID.randomUUID();
            long bad = appender.append(new StatementsStored(List.of(new StoredStatement(id, 2,
                    "{\"id\":".getBytes(StandardCharsets.UTF_8)))));
            appender.append(new StatementsStored(List.of(statement(UUID.randomUUID(), 3, COMPLETED,
                    activity("http://example.com/a")))));
            appender.sync();
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                for (int attempt = 0; attempt < 2; attempt++) {
                    BadLogEntryException e = assertThrows(BadLogEntryException.class, projector::doWork);
                    assertEquals(bad, e.position());
                    assertTrue(e.getMessage().contains(Long.toHexString(bad)), e.getMessage());
                    assertTrue(e.getMessage().contains("cairn log check"), e.getMessage());
                }
                assertEquals(good, db.watermark().logIndex());
                assertEquals(1, db.watermark().seq());
                assertEquals(1, count(new StatementReader(db), COMPLETED));
                ProjectorRunner runner = ProjectorRunner.alone(projector);
                runner.start();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (runner.failure() == null && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                assertInstanceOf(BadLogEntryException.class, runner.failure(), "the runner stops, it does not retry");
            }
        }
    }

    private void execute(String url, String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); java.sql.Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    private static void drain(Projector projector) {
        while (projector.doWork() > 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aFailedTransactionRetriedGivesTheTablesOfAnUninterruptedRun() throws SQLException {
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = db(); LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                appender.append(new StatementsStored(List.of(naming(1, "Ada", "One"), naming(2, "Ada", "One"))));
                appender.sync();
                drain(projector);
                // The next transaction fails on the first new name, after the reader has read past it.
                if (dialect.equals("sqlite")) {
                    execute(database.url(), "CREATE TRIGGER fail_name BEFORE INSERT ON agent_name"
                            + " WHEN NEW.name = 'Ada Lovelace' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
                } else {
                    execute(database.url(), "CREATE FUNCTION fail_name() RETURNS trigger LANGUAGE plpgsql AS"
                            + " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
                            "CREATE TRIGGER fail_name BEFORE INSERT ON agent_name FOR EACH ROW"
                            + " WHEN (NEW.name = 'Ada Lovelace') EXECUTE FUNCTION fail_name()");
                }
                appender.append(new StatementsStored(List.of(naming(3, "Ada Lovelace", "Two"))));
                appender.append(new StatementsStored(List.of(naming(4, "Ada Lovelace", "Two"))));
                appender.sync();
                assertThrows(RuntimeException.class, projector::doWork);
                execute(database.url(), "DROP TRIGGER fail_name" + (dialect.equals("sqlite") ? "" : " ON agent_name"));
                drain(projector);
            }
            assertEquals(4, db.watermark().seq());
            try (TestDatabase fresh = TestDatabase.create(dialect, dir);
                 Database uninterrupted = Database.open(fresh.url())) {
                try (Projector projector = new Projector(log, new ProjectionWriter(uninterrupted),
                        new WatermarkTracker(uninterrupted.watermark(), Clock.systemUTC()), 100)) {
                    drain(projector);
                }
                assertEquals(ProjectionChecksum.of(uninterrupted), ProjectionChecksum.of(db));
            }
        }
    }
}
