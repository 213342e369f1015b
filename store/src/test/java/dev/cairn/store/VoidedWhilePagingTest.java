package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A filtered page reads the match rows first and the statements after: a statement voided in between is left out,
 * and the paging must not end there. The race is made here by voiding statements without touching their match rows,
 * which is what a reader that scanned them just before the voiding sees.
 */
class VoidedWhilePagingTest {
    private static final String VERB = "http://example.com/verbs/paged";

    @TempDir
    Path dir;

    private static ProjectedStatement statement(int i) {
        UUID id = new UUID(7, i);
        byte[] json = ("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + VERB
                + "\"},\"object\":{\"id\":\"http://example.com/a\"}}").getBytes(StandardCharsets.UTF_8);
        return new ProjectedStatement(id, i, json,
                FilterKeys.of(StatementParser.parseOne(json, XapiVersion.V2_0_0).statement()), false);
    }

    /** Pages through the statements of VERB, newest first, two to a page; the i of each statement in order. */
    private static List<Integer> pageThrough(StatementReader reader) {
        List<Integer> seen = new ArrayList<>();
        long cursor = 0;
        for (int pages = 0; pages < 20; pages++) {
            StatementPage page = reader.page(new StatementQuery(List.of(new KeyFilter(FilterKey.verb(VERB), false)),
                    null, null, 2, false, cursor));
            for (byte[] s : page.statements()) {
                seen.add((int) UUID.fromString(new String(s, 7, 36, StandardCharsets.US_ASCII)).getLeastSignificantBits());
            }
            if (!page.more()) {
                return seen;
            }
            cursor = page.lastSeq();
        }
        throw new AssertionError("no end after 20 pages: " + seen);
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void statementsVoidedBetweenTheScanAndTheReadDoNotEndThePaging(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = Database.open(t.url())) {
            try (ProjectionWriter writer = new ProjectionWriter(db)) {
                for (int i = 1; i <= 6; i++) {
                    writer.add(statement(i));
                }
                writer.commit(0);
            }
            try (Connection c = db.newWriter(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE statement SET voided = 1 WHERE seq IN (3, 4, 5)"); // auto-commit
            }
            // The first page's scan finds 6, 5, 4 and reads 6 alone; the second's finds 5, 4, 3, none of them left.
            assertEquals(List.of(6, 2, 1), pageThrough(new StatementReader(db)));
        }
    }
}
