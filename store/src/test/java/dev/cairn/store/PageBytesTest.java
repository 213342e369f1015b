package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.FilterKey;
import dev.cairn.xapi.FilterKeys;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A page holds no more statements than fit in its byte bound, but always one; its cursor continues with the next, so
 * paging through returns every statement once, in order, filtered or not, either way.
 */
class PageBytesTest {
    private static final String VERB = "http://example.com/verbs/big";
    private static final int STATEMENTS = 40;
    private static final long MAX_BYTES = 50_000;

    @TempDir
    Path dir;

    /** Statement i is about 20 KB, every seventh about 70 KB (more than a page's bound on its own). */
    private static ProjectedStatement statement(int i) {
        UUID id = new UUID(5, i);
        int size = i % 7 == 0 ? 70_000 : 20_000 + i;
        byte[] json = ("{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:a@example.com\"},\"verb\":{\"id\":\"" + VERB
                + "\"},\"object\":{\"id\":\"http://example.com/a\"},\"result\":{\"response\":\"" + "x".repeat(size)
                + "\"}}").getBytes(StandardCharsets.UTF_8);
        return new ProjectedStatement(id, i, json,
                FilterKeys.of(StatementParser.parseOne(json, XapiVersion.V2_0_0).statement()), false);
    }

    private static Database projected(TestDatabase t) {
        Database db = Database.open(t.url());
        try (ProjectionWriter writer = new ProjectionWriter(db)) {
            for (int i = 1; i <= STATEMENTS; i++) {
                writer.add(statement(i));
            }
            writer.commit(0);
        }
        return db;
    }

    @ParameterizedTest
    @MethodSource("dev.cairn.store.TestDatabase#dialects")
    void pagesStopAtTheirByteBoundAndTheCursorReturnsTheRest(String dialect) throws Exception {
        try (TestDatabase t = TestDatabase.create(dialect, dir); Database db = projected(t)) {
            StatementReader reader = new StatementReader(db);
            for (List<KeyFilter> filters : List.of(List.<KeyFilter>of(), List.of(new KeyFilter(FilterKey.verb(VERB), false)))) {
                for (boolean ascending : new boolean[] {false, true}) {
                    String what = (filters.isEmpty() ? "unfiltered" : "by verb") + (ascending ? " ascending" : "");
                    List<String> seen = new ArrayList<>();
                    long cursor = 0;
                    int pages = 0;
                    while (true) {
                        StatementPage page = reader.page(new StatementQuery(filters, null, null, 1000, ascending, cursor),
                                MAX_BYTES);
                        long bytes = page.statements().stream().mapToLong(s -> s.length).sum();
                        assertTrue(page.statements().size() == 1 || bytes <= MAX_BYTES, what + ": " + bytes + " bytes");
                        assertEquals(page.statements().size(), page.seqs().length, what);
                        for (byte[] s : page.statements()) {
                            seen.add(new String(s, 7, 36, StandardCharsets.US_ASCII));
                        }
                        pages++;
                        if (!page.more()) {
                            break;
                        }
                        cursor = page.lastSeq();
                    }
                    List<String> all = new ArrayList<>();
                    for (int i = 1; i <= STATEMENTS; i++) {
                        all.add(new UUID(5, ascending ? i : STATEMENTS + 1 - i).toString());
                    }
                    assertEquals(all, seen, what);
                    assertTrue(pages >= STATEMENTS / 2, what + " in " + pages + " pages");
                }
            }
        }
    }

    /**
     * PostgreSQL's driver fetches a whole result at once, so there the page's SQL returns nothing past the bound
     * (SQLite's steps a row at a time, and the reader stops).
     */
    @Test
    void onPostgresqlRowsPastTheBoundAreNotFetched() throws Exception {
        try (TestDatabase t = TestDatabase.create("postgresql", dir); Database db = projected(t)) {
            String sql = db.sqlIn("statements_by_seq", 10).replace("{dir}", "ASC").replace("{max_bytes}", "50000");
            try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 1; i <= 10; i++) {
                    ps.setLong(i, i);
                }
                List<Boolean> withContent = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        withContent.add(rs.getBytes(3) != null);
                    }
                }
                assertEquals(List.of(true, true, false), withContent,
                        "two that fit (about 40 KB), and the first that does not without its content");
            }
        }
    }
}
