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
import java.util.concurrent.atomic.AtomicLong;
import org.sqlite.Function;

/**
 * Shows how the verb query reads the match index: the plan of {@code page_filtered} (statements.sql) with the real
 * parameters of a first page and of its more link, and the rows it actually reads, before and after the tables'
 * statistics are gathered (ANALYZE, as PostgreSQL's autovacuum does by itself). PostgreSQL counts rows itself
 * (EXPLAIN ANALYZE, BUFFERS); on SQLite a counting function is added to the WHERE clause of the match scan, where it
 * runs once per match row the scan visits before LIMIT stops it, and the plan is shown with and without it to prove
 * the counter does not change the plan (each returned row then reads one statement by its rowid).
 */
final class QueryPlans {
    static final int PAGE = 100;

    private QueryPlans() {
    }

    static void show(Database db, long statements) {
        try (Connection c = DriverManager.getConnection(db.url())) {
            long keyId = verbKey(c, StatementCorpus.HOT_VERB);
            long total = scalar(c, "SELECT count(*) FROM statement_match WHERE entry = " + keyId * 2);
            long refs = scalar(c, "SELECT count(*) FROM statement_match m JOIN statement_ref r ON r.referrer_seq = m.seq"
                    + " WHERE m.entry = " + keyId * 2);
            System.out.printf("Query plan: verb=%s, limit=%d, on %,d statements; the verb's key (id %d) has %,d match rows,"
                    + " %,d of them (%.1f%%) StatementRef statements matching through their target%n%n",
                    StatementCorpus.HOT_VERB, PAGE, statements, keyId, total, refs, 100.0 * refs / total);
            String sql = db.sql("page_filtered").replace("{dir}", "DESC");
            long[] first = {keyId * 2, 0, Long.MAX_VALUE, PAGE + 1}; // entry: the key's every match (scope 0)
            long lastSeq = lastSeqOfPage(c, sql.replace("{and_also}", ""), first);
            long[] more = {keyId * 2, 0, lastSeq, PAGE + 1};
            for (String statistics : new String[] {"no statistics", "after ANALYZE"}) {
                if (statistics.startsWith("after")) {
                    try (java.sql.Statement s = c.createStatement()) {
                        s.execute("ANALYZE");
                    }
                }
                if (db.dialect() == Dialect.SQLITE) {
                    sqlite(c, sql, first, "first page, " + statistics);
                    sqlite(c, sql, more, "more link (cursor seq < " + lastSeq + "), " + statistics);
                } else {
                    postgres(c, sql.replace("{and_also}", ""), first, "first page, " + statistics);
                    postgres(c, sql.replace("{and_also}", ""), more, "more link (cursor seq < " + lastSeq + "), "
                            + statistics);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot show the query plans: " + e.getMessage(), e);
        }
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
        String plain = sql.replace("{and_also}", "");
        String counted = sql.replace("{and_also}", "AND bench_rows_read(m.seq) = 1");
        System.out.println("SQLite, " + what + ", parameters " + Arrays.toString(params) + ":");
        System.out.println("```");
        System.out.println(oneLine(plain));
        System.out.println("EXPLAIN QUERY PLAN:");
        printSqlitePlan(c, plain, params);
        System.out.println("with the row counter in the WHERE clause:");
        printSqlitePlan(c, counted, params);
        int returned = run(c, counted, params);
        System.out.println("rows returned " + returned + "; match rows read (counter) " + rows.get());
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
        System.out.println("PostgreSQL, " + what + ", parameters " + Arrays.toString(params) + ":");
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

    private static long lastSeqOfPage(Connection c, String sql, long[] params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            long last = 0;
            int n = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && n++ < PAGE) {
                    last = rs.getLong(1);
                }
            }
            return last;
        }
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
        ps.setLong(1, params[0]);
        ps.setInt(2, (int) params[1]);
        ps.setLong(3, params[2]);
        ps.setLong(4, params[3]);
        ps.setInt(5, (int) params[4]);
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

    private static long scalar(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String oneLine(String sql) {
        return sql.replaceAll("\\s+", " ").strip();
    }
}
