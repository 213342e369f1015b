package dev.cairn.projector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.EventLog;
import dev.cairn.log.LogAppender;
import dev.cairn.log.StatementsStored;
import dev.cairn.log.StoredStatement;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.WatermarkTracker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On SQLite the projector's commits go to the write-ahead log and a checkpoint thread copies them into the database
 * file soon after, far below SQLite's own automatic threshold (1,000 pages), which the projector no longer runs.
 */
class WalCheckpointTest {
    @TempDir
    Path dir;

    @Test
    void aCommitReachesTheDatabaseFileSoonAfter() throws Exception {
        Path file = dir.resolve("cairn.db");
        try (EventLog log = ChronicleLog.open(dir.resolve("log")); Database db = Database.open("jdbc:sqlite:" + file);
             LogAppender appender = log.appender()) {
            List<StoredStatement> statements = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                UUID id = UUID.randomUUID();
                String json = "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a" + i + "@example.com\"},"
                        + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},"
                        + "\"object\":{\"id\":\"http://example.com/activities/" + i + "\"}}";
                statements.add(new StoredStatement(id, i, json.getBytes(StandardCharsets.UTF_8)));
            }
            appender.append(new StatementsStored(statements));
            appender.sync();
            long before = Files.size(file);
            try (Projector projector = new Projector(log, new ProjectionWriter(db),
                    new WatermarkTracker(db.watermark(), Clock.systemUTC()), 1000)) {
                assertEquals(1, projector.doWork());
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (Files.size(file) <= before + 32 * 1024 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(Files.size(file) > before + 32 * 1024, "the database file holds the commit: "
                        + before + " -> " + Files.size(file) + " bytes");
            }
        }
    }
}
