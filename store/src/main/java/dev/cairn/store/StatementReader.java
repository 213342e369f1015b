package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The query side's reads. Every statement query reads one ordered range of the match index (or of the
 * statement table when unfiltered) and stops after the page (see {@link MatchScan}).
 */
public final class StatementReader {
    private final Database db;

    public StatementReader(Database db) {
        this.db = db;
    }

    /** A statement that is not voided, by id, in its exact form. */
    public Optional<StoredJson> byId(UUID id) {
        return single("statement_by_id", id);
    }

    /** A voided statement, by id, in its exact form. */
    public Optional<StoredJson> voidedById(UUID id) {
        return single("voided_statement_by_id", id);
    }

    private Optional<StoredJson> single(String sql, UUID id) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql(sql))) {
            ps.setString(1, id.toString());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new StoredJson(rs.getBytes(1), rs.getLong(2))) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read statement " + id + ": " + e.getMessage(), e);
        }
    }

    /** The stored attachments with these SHA-2 hashes; hashes with no stored content are left out. */
    public List<StoredAttachment> attachments(Collection<String> sha2s) {
        List<StoredAttachment> out = new ArrayList<>(sha2s.size());
        try {
            byHashes("attachments_by_sha2", sha2s,
                    rs -> out.add(new StoredAttachment(rs.getString(1), rs.getString(2), rs.getBytes(3))));
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot read attachments: " + e.getMessage(), e);
        }
    }

    /** The attachment contents (SHA-2 hashes) each of these statements' own request carried, by statement id. */
    public Map<String, Set<String>> carriedAttachments(Collection<String> statementIds) {
        Map<String, Set<String>> out = new HashMap<>();
        try {
            byHashes("carried_attachments", statementIds,
                    rs -> out.computeIfAbsent(rs.getString(1), id -> new HashSet<>()).add(rs.getString(2)));
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot read which attachments statements carried: " + e.getMessage(), e);
        }
    }

    /** The size in bytes of each stored attachment of these SHA-2 hashes; hashes with no stored content are left out. */
    public Map<String, Long> attachmentSizes(Collection<String> sha2s) {
        Map<String, Long> out = new HashMap<>();
        try {
            byHashes("attachment_sizes_by_sha2", sha2s, rs -> out.put(rs.getString(1), rs.getLong(2)));
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot read attachment sizes: " + e.getMessage(), e);
        }
    }

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    /**
     * Runs the named SQL, whose {@code (?)} list takes SHA-2 hashes (or statement ids), for every row of {@code sha2s}:
     * a page's statements can name more attachments than one list may hold, so they are sent in lists of at most
     * {@link Database#MAX_IN_LIST}.
     */
    private void byHashes(String sql, Collection<String> sha2s, Row each) throws SQLException {
        if (sha2s.isEmpty()) {
            return;
        }
        List<String> all = new ArrayList<>(sha2s);
        try (Connection c = db.reader()) {
            for (int from = 0; from < all.size(); from += Database.MAX_IN_LIST) {
                int n = Math.min(Database.MAX_IN_LIST, all.size() - from);
                try (PreparedStatement ps = c.prepareStatement(db.sqlIn(sql, n))) {
                    for (int i = 0; i < n; i++) {
                        ps.setString(i + 1, all.get(from + i));
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            each.read(rs);
                        }
                    }
                }
            }
        }
    }

    /** A page of statements in their exact form, bounded by the query's limit only. */
    public StatementPage page(StatementQuery q) {
        return page(q, Long.MAX_VALUE);
    }

    /**
     * A page of statements in their exact form: at most the query's limit, and no more statements than fit in
     * {@code maxBytes} (but always one, so a client paging through makes progress). Rows past the bound are not read.
     */
    public StatementPage page(StatementQuery q, long maxBytes) {
        try (Connection c = db.reader()) {
            List<Long> entries = new ArrayList<>();
            for (KeyFilter f : q.filters()) {
                Long id = keyId(c, f);
                if (id == null) {
                    return StatementPage.EMPTY; // no statement has ever matched this key
                }
                entries.add(MatchKeys.entry(id, f.narrow() ? MatchKeys.SCOPE_NARROW : MatchKeys.SCOPE_ALL));
            }
            long lo = 0;
            long hi = Long.MAX_VALUE;
            if (q.sinceMillis() != null) {
                Long first = bound(c, "first_seq_stored_after", q.sinceMillis());
                if (first == null) {
                    return StatementPage.EMPTY;
                }
                lo = first - 1;
            }
            if (q.untilMillis() != null) {
                Long last = bound(c, "last_seq_stored_at_or_before", q.untilMillis());
                if (last == null) {
                    return StatementPage.EMPTY;
                }
                hi = last + 1;
            }
            if (q.afterSeq() > 0) {
                if (q.ascending()) {
                    lo = Math.max(lo, q.afterSeq());
                } else {
                    hi = Math.min(hi, q.afterSeq());
                }
            }
            String dir = q.ascending() ? "ASC" : "DESC";
            PageBuilder page = new PageBuilder(q.limit(), maxBytes);
            if (entries.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(page.bounded(db.sql("page_unfiltered")).replace("{dir}", dir))) {
                    ps.setLong(1, lo);
                    ps.setLong(2, hi);
                    ps.setInt(3, q.limit() + 1);
                    page.read(ps);
                }
                return page.build();
            }
            while (true) {
                long[] seqs = MatchScan.seqs(c, db, entries, lo, hi, q.ascending(), q.limit() + 1);
                for (int from = 0; from < seqs.length && !page.full(); from += Database.MAX_IN_LIST) {
                    int n = Math.min(Database.MAX_IN_LIST, seqs.length - from);
                    String sql = page.bounded(db.sqlIn("statements_by_seq", n)).replace("{dir}", dir);
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        for (int i = 0; i < n; i++) {
                            ps.setLong(i + 1, seqs[from + i]);
                        }
                        page.read(ps);
                    }
                }
                if (page.full() || seqs.length <= q.limit()) {
                    return page.build();
                }
                // The scan found more than a page, but some were voided before they were read: there are more after
                // what the page holds (a cursor continues from its last), or, when every one was, after the scan's last.
                if (!page.isEmpty()) {
                    return page.withMore();
                }
                if (q.ascending()) {
                    lo = seqs[seqs.length - 1];
                } else {
                    hi = seqs[seqs.length - 1];
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot query statements: " + e.getMessage(), e);
        }
    }

    /** The statements of one page as its queries read them (seq, json), in the page's order. */
    private static final class PageBuilder {
        private final int limit;
        private final long maxBytes;
        private final List<byte[]> statements;
        private long[] seqs;
        private long bytes;
        private boolean more;

        PageBuilder(int limit, long maxBytes) {
            this.limit = limit;
            this.maxBytes = maxBytes;
            this.statements = new ArrayList<>(Math.min(limit, 1000));
            this.seqs = new long[Math.min(limit, 1000)];
        }

        /**
         * The SQL of a page's statements with {@code {max_bytes}} set to what the page has room for: where the
         * driver would otherwise fetch every row at once (PostgreSQL), the SQL returns nothing of the rows past it;
         * where rows are read one at a time (SQLite) the SQL has no such bound and reading stops here.
         */
        String bounded(String sql) {
            return sql.replace("{max_bytes}", Long.toString(Math.max(0, maxBytes - bytes)));
        }

        /**
         * Adds the rows {@code ps} reads (seq, size, json) until the page is full; a row that does not fit means there
         * are more, and its content is not read.
         */
        void read(PreparedStatement ps) throws SQLException {
            try (ResultSet rs = ps.executeQuery()) {
                while (!more && rs.next()) {
                    if (statements.size() == limit
                            || !statements.isEmpty() && bytes + rs.getLong(2) > maxBytes) {
                        more = true;
                        break;
                    }
                    byte[] json = rs.getBytes(3);
                    if (statements.size() == seqs.length) {
                        seqs = Arrays.copyOf(seqs, seqs.length * 2);
                    }
                    seqs[statements.size()] = rs.getLong(1);
                    statements.add(json);
                    bytes += json.length;
                }
            }
        }

        boolean full() {
            return more;
        }

        boolean isEmpty() {
            return statements.isEmpty();
        }

        StatementPage build() {
            return new StatementPage(statements, Arrays.copyOf(seqs, statements.size()), more);
        }

        /** The page, with more after it. */
        StatementPage withMore() {
            return new StatementPage(statements, Arrays.copyOf(seqs, statements.size()), true);
        }
    }

    private Long keyId(Connection c, KeyFilter f) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(db.sql("find_key"))) {
            ps.setInt(1, f.key().kind().ordinal());
            ps.setString(2, f.key().value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private Long bound(Connection c, String sql, long millis) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(db.sql(sql))) {
            ps.setLong(1, millis);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    long v = rs.getLong(1);
                    return rs.wasNull() ? null : v;
                }
                return null;
            }
        }
    }
}
