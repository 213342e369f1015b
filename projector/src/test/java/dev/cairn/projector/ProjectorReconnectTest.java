package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionChecksum;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.TestDatabase;
import dev.cairn.store.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The projector's PostgreSQL connection ends under it (the server restarted, an administrator or the network cut
 * it): the failed transaction gives the connection up, the next one opens another, and the tables end as an
 * uninterrupted run leaves them.
 */
class ProjectorReconnectTest {
    private static final String COMPLETED = "http://adlnet.gov/expapi/verbs/completed";

    @TempDir
    Path dir;

    private static StoredStatement naming(long stored, String actorName, String activity, String activityName) {
        UUID id = UUID.randomUUID();
        String json = "{\"id\":\"" + id + "\",\"actor\":{\"name\":\"" + actorName + "\",\"mbox\":\"mailto:a@example.com\"},"
                + "\"verb\":{\"id\":\"" + COMPLETED + "\"},\"object\":{\"id\":\"" + activity + "\","
                + "\"definition\":{\"name\":{\"en-US\":\"" + activityName + "\"}}}}";
        return new StoredStatement(id, stored, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Ends every other session on the test's database, as a server restart does. */
    private static int terminateSessions(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); java.sql.Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                     + " WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void drain(Projector projector) {
        while (projector.doWork() > 0) {
            Thread.onSpinWait();
        }
    }

    @Test
    void aTransactionOnALostConnectionIsRetriedOnANewOneAndGivesTheTablesOfAnUninterruptedRun() throws SQLException {
        try (TestDatabase database = TestDatabase.create("postgresql", dir);
             EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = Database.open(database.url());
             LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                appender.append(new StatementsStored(List.of(naming(1, "Ada", "http://example.com/a", "One"))));
                appender.sync();
                drain(projector);
                assertTrue(terminateSessions(database.url()) >= 1, "the projector's session was ended");
                List<StoredStatement> more = new ArrayList<>();
                for (int i = 0; i < 300; i++) { // more than one transaction: the second must follow the first
                    more.add(naming(2 + i, "Ada Lovelace", "http://example.com/" + (i % 7), "Two " + i));
                }
                for (int i = 0; i < more.size(); i += 10) {
                    appender.append(new StatementsStored(more.subList(i, i + 10)));
                    appender.sync();
                }
                assertThrows(RuntimeException.class, projector::doWork, "the transaction on the ended session fails");
                drain(projector);
                assertEquals(301, committedSeq(database.url()));
                assertEquals(projector.watermark(), tracker.current());
            }
            // Read through new connections: the pool's own lost ones are the pool's business (each fails one read).
            try (TestDatabase fresh = TestDatabase.create("postgresql", dir);
                 Database uninterrupted = Database.open(fresh.url()); Database direct = Database.open(database.url())) {
                try (Projector projector = new Projector(log, new ProjectionWriter(uninterrupted),
                        new WatermarkTracker(uninterrupted.watermark(), Clock.systemUTC()), 100)) {
                    drain(projector);
                }
                assertEquals(ProjectionChecksum.of(uninterrupted), ProjectionChecksum.of(direct));
            }
        }
    }

    @Test
    void aCommitWhoseAnswerTheLostConnectionNeverGaveIsFoundCommittedAndNotAppliedTwice() throws Exception {
        try (TestDatabase database = TestDatabase.create("postgresql", dir);
             CommitCuttingProxy proxy = CommitCuttingProxy.forUrl(database.url());
             EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = Database.open(proxy.url(database.url()));
             LogAppender appender = log.appender()) {
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), Clock.systemUTC());
            try (Projector projector = new Projector(log, new ProjectionWriter(db), tracker, 100)) {
                appender.append(new StatementsStored(List.of(naming(1, "Ada", "http://example.com/a", "One"))));
                appender.sync();
                drain(projector);
                proxy.cutAfterNextCommit();
                appender.append(new StatementsStored(List.of(naming(2, "Ada Lovelace", "http://example.com/b", "Two"))));
                appender.sync();
                assertThrows(RuntimeException.class, projector::doWork, "the commit's answer never comes");
                assertEquals(2, committedSeq(database.url()), "yet the server has the commit");
                appender.append(new StatementsStored(List.of(naming(3, "Ada", "http://example.com/c", "Three"))));
                appender.sync();
                assertThrows(RuntimeException.class, projector::doWork, "the next connection finds it and starts over");
                drain(projector);
                assertEquals(3, committedSeq(database.url()));
                assertEquals(projector.watermark(), tracker.current());
            }
            try (TestDatabase fresh = TestDatabase.create("postgresql", dir);
                 Database uninterrupted = Database.open(fresh.url())) {
                try (Projector projector = new Projector(log, new ProjectionWriter(uninterrupted),
                        new WatermarkTracker(uninterrupted.watermark(), Clock.systemUTC()), 100)) {
                    drain(projector);
                }
                assertEquals(ProjectionChecksum.of(uninterrupted), ProjectionChecksum.of(db));
            }
        }
    }

    private static long committedSeq(String url) throws SQLException {
        try (Database direct = Database.open(url)) {
            return direct.watermark().seq();
        }
    }
}
