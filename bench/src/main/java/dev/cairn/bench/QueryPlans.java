package dev.cairn.bench;

import dev.cairn.store.Database;
import dev.cairn.store.Dialect;
import dev.cairn.xapi.FilterKey;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.sqlite.Function;

/**
 * Shows how the verb query reads the match index, as the store's MatchScan runs it for one filter: a range of the
 * verb's match rows ({@code match_blocks}, statements.sql; each row holds the matches of 64 consecutive sequence
 * numbers), then the page's statements by sequence number ({@code statements_by_seq}). Both plans are shown with
 * the real parameters of a first page and of its more link, with the rows each actually reads, before and after the
 * tables' statistics are gathered (ANALYZE, as PostgreSQL's autovacuum does by itself). PostgreSQL counts rows itself
 * (EXPLAIN ANALYZE, BUFFERS); on SQLite a counting function is added to each WHERE clause, where it runs once per row
 * the search visits, and the plan is shown with and without it to prove the counter does not change the plan.
 */
final class QueryPlans {
    static final int PAGE = 100;
    /** The match rows a single filter's first read asks for (MatchScan.FIRST_CHUNK). */
    static final int FIRST_READ = 32;

    private QueryPlans() {
    }

    static void show(Database db, long statements) {
        try (Connection c = DriverManager.getConnection(db.url())) {
            long entry = verbKey(c, StatementCorpus.HOT_VERB) * 2; // the key's every match (scope 0)
            long[] census = census(c, entry);
            System.out.printf("Query plan: verb=%s, limit=%d, on %,d statements; the verb's entry (%d) has %,d matches"
                    + " in %,d rows, %,d of the matches (%.1f%%) StatementRef statements matching through their"
                    + " target%n%n", StatementCorpus.HOT_VERB, PAGE, statements, entry, census[0], census[1],
                    census[2], 100.0 * census[2] / census[0]);
            String blocks = db.sql("match_blocks").replace("{dir}", "DESC").replace("{from}", "<=");
            long[] first = {entry, Long.MAX_VALUE, FIRST_READ};
            long[] firstPage = page(c, blocks, first, Long.MAX_VALUE);
            long lastSeq = firstPage[PAGE - 1]; // the more link's cursor: the last statement the page returns
            long[] more = {entry, (lastSeq - 1) >> 6, FIRST_READ};
            long[] morePage = page(c, blocks, more, lastSeq);
            for (String statistics : new String[] {"no statistics", "after ANALYZE"}) {
                if (statistics.startsWith("after")) {
                    try (java.sql.Statement s = c.createStatement()) {
                        s.execute("ANALYZE");
                    }
                }
                show(db, c, blocks, first, "match rows, first page, " + statistics);
                show(db, c, bySeq(db, firstPage), firstPage, "statements, first page, " + statistics);
                show(db, c, blocks, more, "match rows, more link (cursor seq < " + lastSeq + "), " + statistics);
                show(db, c, bySeq(db, morePage), morePage, "statements, more link, " + statistics);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot show the query plans: " + e.getMessage(), e);
        }
    }

    private static void show(Database db, Connection c, String sql, long[] params, String what) throws SQLException {
        if (db.dialect() == Dialect.SQLITE) {
            sqlite(c, sql, params, what);
        } else {
            postgres(c, sql, params, what);
        }
    }

    /** Matches, rows and StatementRef matches of {@code entry}. */
    private static long[] census(Connection c, long entry) throws SQLException {
        Set<Long> referrers = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT referrer_seq FROM statement_ref");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                referrers.add(rs.getLong(1));
            }
        }
        long matches = 0;
        long rows = 0;
        long refs = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT block, bits FROM statement_match WHERE entry = ?")) {
            ps.setLong(1, entry);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    for (long seq : seqs(rs.getLong(1), rs.getLong(2))) {
                        matches++;
                        refs += referrers.contains(seq) ? 1 : 0;
                    }
                }
            }
        }
        return new long[] {matches, rows, refs};
    }

    /** A page's sequence numbers (and one more), newest first below {@code hi}, from the rows {@code blocks} reads. */
    private static long[] page(Connection c, String blocks, long[] params, long hi) throws SQLException {
        long[] out = new long[0];
        try (PreparedStatement ps = c.prepareStatement(blocks)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && out.length < PAGE + 1) {
                    long[] seqs = seqs(rs.getLong(1), rs.getLong(2));
                    for (int i = seqs.length - 1; i >= 0 && out.length < PAGE + 1; i--) {
                        if (seqs[i] >= hi) {
                            continue;
                        }
                        out = Arrays.copyOf(out, out.length + 1);
                        out[out.length - 1] = seqs[i];
                    }
                }
            }
        }
        return out;
    }

    private static long[] seqs(long block, long bits) {
        long[] out = new long[Long.bitCount(bits)];
        int n = 0;
        for (long b = bits; b != 0; b &= b - 1) {
            out[n++] = block * 64 + Long.numberOfTrailingZeros(b);
        }
        return out;
    }

    /** The SQL of a page's statements as the reader runs it at the default page bound (--max-page-bytes). */
    private static String bySeq(Database db, long[] seqs) {
        return db.sqlIn("statements_by_seq", seqs.length).replace("{dir}", "DESC")
                .replace("{max_bytes}", Long.toString(16L << 20));
    }

    private static void sqlite(Connection c, String sql, long[] params, String what) throws SQLException {
        AtomicLong rows = new AtomicLong();
        Function.create(c, "bench_rows_read", new Function() {
            @Override
            protected void xFunc() throws SQLException {
                rows.incrementAndGet();
                result(1);
            }
        });
        String column = sql.contains("FROM statement_match") ? "block" : "seq";
        String counted = sql.replace(" ORDER BY", " AND bench_rows_read(" + column + ") = 1 ORDER BY");
        System.out.println("SQLite, " + what + ", " + params.length + " parameters " + brief(params) + ":");
        System.out.println("```");
        System.out.println(oneLine(sql));
        System.out.println("EXPLAIN QUERY PLAN:");
        printSqlitePlan(c, sql, params);
        System.out.println("with the row counter in the WHERE clause:");
        printSqlitePlan(c, counted, params);
        int returned = run(c, counted, params);
        System.out.println("rows returned " + returned + "; rows read (counter) " + rows.get());
        System.out.println("```");
        System.out.println();
    }

    private static void printSqlitePlan(Connection c, String sql, long[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + sql)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    System.out.println("  " + rs.getString(4));
                }
            }
        }
    }

    private static void postgres(Connection c, String sql, long[] params, String what) throws SQLException {
        System.out.println("PostgreSQL, " + what + ", " + params.length + " parameters " + brief(params) + ":");
        System.out.println("```");
        System.out.println(oneLine(sql));
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    System.out.println(rs.getString(1));
                }
            }
        }
        System.out.println("```");
        System.out.println();
    }

    private static int run(Connection c, String sql, long[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            int n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    n++;
                }
            }
            return n;
        }
    }

    private static void bind(PreparedStatement ps, long[] params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setLong(i + 1, params[i]);
        }
    }

    private static String brief(long[] params) {
        return params.length <= 4 ? Arrays.toString(params)
                : "[" + params[0] + ", " + params[1] + ", ..., " + params[params.length - 1] + "]";
    }

    private static long verbKey(Connection c, String iri) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM filter_key WHERE kind = ? AND value = ?")) {
            ps.setInt(1, FilterKey.Kind.VERB.ordinal());
            ps.setString(2, FilterKey.verb(iri).value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no filter key for verb " + iri);
                }
                return rs.getLong(1);
            }
        }
    }

    private static String oneLine(String sql) {
        return sql.replaceAll("\\s+", " ").replaceAll("\\(\\?(, \\?)+\\)", "(?, ?, ... one per sequence number)")
                .strip();
    }
}
