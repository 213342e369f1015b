package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An erasure that changes only the rows it touches leaves the tables a replay of the erased log builds: statements
 * removed (tombstones) and rewritten in their places, with StatementRefs to them in every direction, chains of
 * referrers, a voiding statement removed (its target matches again) and one arriving before its target.
 */
class StatementErasureRowsTest {
    private static final String ADA = "{\"mbox\":\"mailto:ada@example.com\"}";
    private static final String PLACEHOLDER = "{\"openid\":\"urn:cairn:erased:0000abcd\"}";
    private static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";

    @TempDir
    Path dir;

    private static UUID id(int i) {
        return new UUID(7, i);
    }

    private static String agent(String name) {
        return "{\"mbox\":\"mailto:" + name + "@example.com\"}";
    }

    private static String statement(int i, String actor, String verb, String object, String more) {
        return "{\"id\":\"" + id(i) + "\",\"actor\":" + actor + ",\"verb\":{\"id\":\"" + verb + "\"},\"object\":" + object
                + more + "}";
    }

    private static String activity(int n) {
        return "{\"id\":\"http://example.com/activities/a" + n + "\"}";
    }

    private static String ref(int i) {
        return "{\"objectType\":\"StatementRef\",\"id\":\"" + id(i) + "\"}";
    }

    /** The log: statement i at sequence number i + 1; {@code instructor} is the instructor of statement 3. */
    private static List<String> log(String instructor) {
        String done = "http://example.com/verbs/done";
        return List.of(
                statement(0, ADA, done, activity(1), ""),                      // removed
                statement(1, agent("bob"), done, ref(0), ""),                  // refers to a removed one
                statement(2, agent("carol"), done, ref(1), ""),                // ... and a chain on it
                statement(3, agent("bob"), done, activity(2), ",\"context\":{\"instructor\":" + instructor + "}"),
                statement(4, agent("dan"), done, ref(3), ""),                  // refers to a rewritten one
                statement(5, agent("erin"), done, activity(3), ""),            // voided by 6, which is removed
                statement(6, ADA, VOIDED, ref(5), ""),
                statement(7, agent("frank"), VOIDED, ref(8), ""),              // voids a statement still to come
                statement(8, agent("frank"), done, activity(4), ""),
                statement(9, agent("gina"), done, ref(3), ""),
                statement(10, agent("hank"), done, ref(11), ""),               // refers to a removed one to come
                statement(11, ADA, done, activity(1), ""),                     // removed
                statement(12, agent("ivan"), done, ref(10), ""));
    }

    private static ProjectedStatement projected(int i, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        Statement s = StatementParser.parseStored(bytes).statement();
        return new ProjectedStatement(id(i), 1_000L + i, bytes, FilterKeys.of(s), s.isVoiding());
    }

    private static final Set<Integer> REMOVED = Set.of(0, 6, 11);
    private static final int REWRITTEN = 3;

    private Map<String, String> checksum(String dialect, Function<ProjectionWriter, Void> project) {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (ProjectionWriter writer = new ProjectionWriter(db)) {
                project.apply(writer);
            }
            return ProjectionChecksum.of(db);
        }
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void erasingTouchedRowsLeavesWhatAReplayOfTheErasedLogBuilds(String dialect) {
        Map<String, String> live = checksum(dialect, writer -> {
            List<String> log = log(ADA);
            for (int i = 0; i < log.size(); i++) {
                writer.add(projected(i, log.get(i)));
            }
            writer.commit(log.size());
            List<UUID> removed = new ArrayList<>();
            REMOVED.forEach(i -> removed.add(id(i)));
            writer.erase(Set.copyOf(removed), Map.of(id(REWRITTEN), projected(REWRITTEN, log(PLACEHOLDER)
                    .get(REWRITTEN))));
            writer.commit(log.size());
            return null;
        });
        Map<String, String> replay = checksum(dialect, writer -> {
            List<String> log = log(PLACEHOLDER);
            for (int i = 0; i < log.size(); i++) {
                if (REMOVED.contains(i)) {
                    writer.addErased(id(i), 1_000L + i);
                } else {
                    writer.add(projected(i, log.get(i)));
                }
            }
            writer.commit(log.size());
            return null;
        });
        assertEquals(replay, live);
    }
}
