package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
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
        if (sha2s.isEmpty()) {
            return out;
        }
        String sql = db.sqlIn("attachments_by_sha2", sha2s.size());
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            for (String sha2 : sha2s) {
                ps.setString(i++, sha2);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredAttachment(rs.getString(1), rs.getString(2), rs.getBytes(3)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot read attachments: " + e.getMessage(), e);
        }
    }

    /** A page of statements in their exact form. */
    public StatementPage page(StatementQuery q) {
        try (Connection c = db.reader()) {
            List<Long> entries = new ArrayList<>();
            for (KeyFilter f : q.filters()) {
                Long id = keyId(c, f);
                if (id == null) {
                    return new StatementPage(List.of(), false, 0); // no statement has ever matched this key
                }
                entries.add(MatchKeys.entry(id, f.narrow() ? MatchKeys.SCOPE_NARROW : MatchKeys.SCOPE_ALL));
            }
            long lo = 0;
            long hi = Long.MAX_VALUE;
            if (q.sinceMillis() != null) {
                Long first = bound(c, "first_seq_stored_after", q.sinceMillis());
                if (first == null) {
                    return new StatementPage(List.of(), false, 0);
                }
                lo = first - 1;
            }
            if (q.untilMillis() != null) {
                Long last = bound(c, "last_seq_stored_at_or_before", q.untilMillis());
                if (last == null) {
                    return new StatementPage(List.of(), false, 0);
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
            if (entries.isEmpty()) {
                try (PreparedStatement ps = c.prepareStatement(db.sql("page_unfiltered").replace("{dir}", dir))) {
                    ps.setLong(1, lo);
                    ps.setLong(2, hi);
                    ps.setInt(3, q.limit() + 1);
                    return page(ps, q.limit(), new ArrayList<>(Math.min(q.limit(), 1000)), 0);
                }
            }
            long[] seqs = MatchScan.seqs(c, db, entries, lo, hi, q.ascending(), q.limit() + 1);
            return bySeq(c, seqs, dir, q.limit());
        } catch (SQLException e) {
            throw new StoreException("cannot query statements: " + e.getMessage(), e);
        }
    }

    /** The statements of {@code seqs}, in their order ({@code dir}), as a page of at most {@code limit}. */
    private StatementPage bySeq(Connection c, long[] seqs, String dir, int limit) throws SQLException {
        List<byte[]> out = new ArrayList<>(seqs.length);
        StatementPage page = new StatementPage(out, false, 0);
        for (int from = 0; from < seqs.length && !page.more(); from += Database.MAX_IN_LIST) {
            int n = Math.min(Database.MAX_IN_LIST, seqs.length - from);
            String sql = db.sqlIn("statements_by_seq", n).replace("{dir}", dir);
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < n; i++) {
                    ps.setLong(i + 1, seqs[from + i]);
                }
                page = page(ps, limit, out, page.lastSeq());
            }
        }
        return page;
    }

    /**
     * Adds the statements {@code ps} reads (seq, json) to {@code out} until the page is full; a further row means
     * there is more.
     */
    private static StatementPage page(PreparedStatement ps, int limit, List<byte[]> out, long lastSeq)
            throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (out.size() == limit) {
                    return new StatementPage(out, true, lastSeq);
                }
                lastSeq = rs.getLong(1);
                out.add(rs.getBytes(2));
            }
        }
        return new StatementPage(out, false, lastSeq);
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
