package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import dev.cairn.xapi.AgentNames;
import dev.cairn.xapi.FilterKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** The audit of erasures: what each one erased and how long it took, without the erased personal data. */
public final class ErasureStore {
    /**
     * One erasure.
     *
     * @param subject what was asked, personal data left out: {@code agent sha256:HEX} per person (of the IFI key),
     *                {@code statements N} for ids, {@code stored before T}
     */
    public record Erasure(long id, long atMillis, String subject, long statementsRemoved, long statementsRewritten,
                          long documentEntries, long logEntries, long logBytes, long millis) {
    }

    private final Database db;

    public ErasureStore(Database db) {
        this.db = db;
    }

    /** Records {@code e} (its id is the database's), the erasure {@code erasureId}. */
    public void record(Erasure e, String erasureId) {
        try (Connection c = db.reader()) {
            insert(db, c, e, erasureId);
        } catch (SQLException ex) {
            throw new StoreException("cannot record the erasure: " + ex.getMessage(), ex);
        }
    }

    /** Records {@code e} on {@code c}, in its transaction if one is open. */
    static void insert(Database db, Connection c, Erasure e, String erasureId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(db.sql("insert_erasure"))) {
            ps.setLong(1, e.atMillis());
            ps.setString(2, e.subject());
            ps.setLong(3, e.statementsRemoved());
            ps.setLong(4, e.statementsRewritten());
            ps.setLong(5, e.documentEntries());
            ps.setLong(6, e.logEntries());
            ps.setLong(7, e.logBytes());
            ps.setLong(8, e.millis());
            ps.setString(9, erasureId);
            ps.executeUpdate();
        }
    }

    /**
     * Whether deleting a row in place leaves its bytes in no file of the database: on SQLite, a database created by a
     * release that zeroes what every connection deletes ({@link Migrations#ZEROED_SINCE_CREATION}); on PostgreSQL no
     * dead row is readable once the tables are vacuumed.
     */
    public boolean deletesLeaveNoCopies() {
        if (db.dialect() == Dialect.POSTGRESQL) {
            return true;
        }
        try (Connection c = db.reader(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 1 FROM schema_version WHERE version = "
                     + Migrations.ZEROED_SINCE_CREATION)) {
            return rs.next();
        } catch (SQLException ex) {
            throw new StoreException("cannot read the schema version: " + ex.getMessage(), ex);
        }
    }

    /** Whether the erasure {@code erasureId} has changed the tables (it is recorded with that change). */
    public boolean recorded(String erasureId) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("erasure_recorded"))) {
            ps.setString(1, erasureId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot read the erasures: " + ex.getMessage(), ex);
        }
    }

    /** Records how long the erasure {@code erasureId} took, once its log is rewritten too. */
    public void took(String erasureId, long millis) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("erasure_took"))) {
            ps.setLong(1, millis);
            ps.setString(2, erasureId);
            ps.executeUpdate();
        } catch (SQLException ex) {
            throw new StoreException("cannot record the erasure's time: " + ex.getMessage(), ex);
        }
    }

    /** The names seen with agents that {@code holds} says may name an erased person. */
    public List<AgentNames.Named> agentNames(Predicate<byte[]> holds) {
        List<AgentNames.Named> out = new ArrayList<>();
        scan("all_agent_names", null, rs -> {
            String name = rs.getString(2);
            if (holds.test(name.getBytes(StandardCharsets.UTF_8))) {
                out.add(new AgentNames.Named(rs.getString(1), name));
            }
        });
        return out;
    }

    /** The stored activity definitions (JSON, by activity id) that {@code holds} says may name an erased person. */
    public Map<String, byte[]> activityDefinitions(Predicate<byte[]> holds) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        scan("all_activity_definitions", null, rs -> {
            byte[] definition = rs.getBytes(2);
            if (holds.test(definition)) {
                out.put(rs.getString(1), definition);
            }
        });
        return out;
    }

    /**
     * The keys whose value {@code holds} says may name an erased person, each as its kind's ordinal, a colon and its
     * value: filter keys but registrations (UUIDs: an agent's IFI key, an activity or verb IRI, an authority), and the
     * activities and agents the tables keep rows of (an activity only a removed statement's residue still gives has
     * no filter key, nor an agent only a residue names).
     */
    public List<String> keys(Predicate<byte[]> holds) {
        List<String> out = new ArrayList<>();
        scan("named_filter_keys", FilterKey.Kind.REGISTRATION.ordinal(), rs -> add(out, rs.getInt(1), rs.getString(2),
                holds));
        scan("all_activity_definitions", null, rs -> add(out, FilterKey.Kind.ACTIVITY.ordinal(), rs.getString(1), holds));
        scan("all_agent_names", null, rs -> add(out, FilterKey.Kind.AGENT.ordinal(), rs.getString(1), holds));
        return out;
    }

    private static void add(List<String> out, int kind, String value, Predicate<byte[]> holds) {
        if (holds.test(value.getBytes(StandardCharsets.UTF_8))) {
            out.add(kind + ":" + value);
        }
    }

    private interface Row {
        void read(ResultSet rs) throws SQLException;
    }

    /** Reads every row of {@code query}, whose one parameter, if any, is {@code parameter}. */
    private void scan(String query, Integer parameter, Row row) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql(query))) {
            if (parameter != null) {
                ps.setInt(1, parameter);
            }
            ps.setFetchSize(1_000);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    row.read(rs);
                }
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot read " + query + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * The statements a retention period that removes those stored before {@code storedBeforeMillis} keeps, as the
     * tables hold them: the sequence numbers from the first after the last stored before it on, since stored times
     * never decrease with them ({@code Long.MIN_VALUE}: every statement); empty when the tables hold a statement stored
     * at or after it before one stored before it (a retention period would not remove a prefix of them). Each query
     * reads only the statements stored before it, by index, not the ones kept: a removal by id reads none.
     */
    public Optional<KeptStatements> keptFrom(long storedBeforeMillis) {
        try (Connection c = db.reader();
             PreparedStatement last = c.prepareStatement(db.sql("last_seq_stored_before"));
             PreparedStatement keptBefore = c.prepareStatement(db.sql("any_stored_from_below_seq"));
             PreparedStatement first = c.prepareStatement(db.sql("first_seq_after"))) {
            long lastRemoved = Long.MIN_VALUE;
            last.setLong(1, storedBeforeMillis);
            try (ResultSet rs = last.executeQuery()) {
                if (rs.next() && rs.getObject(1) != null) {
                    lastRemoved = rs.getLong(1);
                }
            }
            if (lastRemoved != Long.MIN_VALUE) {
                keptBefore.setLong(1, lastRemoved);
                keptBefore.setLong(2, storedBeforeMillis);
                try (ResultSet rs = keptBefore.executeQuery()) {
                    if (rs.next()) {
                        return Optional.empty();
                    }
                }
            }
            long firstKept = Long.MAX_VALUE;
            first.setLong(1, lastRemoved);
            try (ResultSet rs = first.executeQuery()) {
                if (rs.next() && rs.getObject(1) != null) {
                    firstKept = rs.getLong(1);
                }
            }
            return Optional.of(new KeptStatements(firstKept));
        } catch (SQLException ex) {
            throw new StoreException("cannot read the statements' stored times: " + ex.getMessage(), ex);
        }
    }

    /** Whether the tables hold a statement stored before {@code millis}: a retention period has some to erase. */
    public boolean anyStoredBefore(long millis) {
        return any("any_stored_before", millis);
    }

    /** Whether the tables hold a statement stored at or after {@code millis}: a retention period keeps some. */
    public boolean anyStoredFrom(long millis) {
        return any("any_stored_from", millis);
    }

    private boolean any(String query, long millis) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql(query))) {
            ps.setLong(1, millis);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot read the statements' stored times: " + ex.getMessage(), ex);
        }
    }

    /** The statements from sequence number {@code firstSeq} on ({@link #keptFrom}). */
    public final class KeptStatements {
        private final long firstSeq;

        private KeptStatements(long firstSeq) {
            this.firstSeq = firstSeq;
        }

        /**
         * Whether one of them that matches the agent with this IFI key (as its own key or one it inherits through a
         * StatementRef) is one {@code names} accepts, given its stored JSON; they are offered newest first, and
         * the first accepted ends the search.
         */
        public boolean anyMatching(String agentKey, Predicate<byte[]> names) {
            if (firstSeq == Long.MAX_VALUE) {
                return false;
            }
            try (Connection c = db.reader();
                 PreparedStatement json = c.prepareStatement(db.sql("statement_json_at"))) {
                NavigableMap<Long, Long> blocks = matchBlocks(c, agentKey).descendingMap();
                for (Map.Entry<Long, Long> b : blocks.entrySet()) {
                    for (int bit = 63; bit >= 0; bit--) {
                        long seq = (b.getKey() << 6) + bit;
                        if ((b.getValue() >>> bit & 1) == 0 || seq < firstSeq) {
                            continue;
                        }
                        json.setLong(1, seq);
                        try (ResultSet rs = json.executeQuery()) {
                            if (rs.next() && names.test(rs.getBytes(1))) {
                                return true;
                            }
                        }
                    }
                }
                return false;
            } catch (SQLException ex) {
                throw new StoreException("cannot read the statements of an agent: " + ex.getMessage(), ex);
            }
        }

        /** Offers the stored JSON of each of them that is voided (voided statements leave the match index). */
        public void forEachVoided(Consumer<byte[]> json) {
            if (firstSeq == Long.MAX_VALUE) {
                return;
            }
            try (Connection c = db.reader();
                 PreparedStatement ps = c.prepareStatement(db.sql("voided_statements_from"))) {
                ps.setLong(1, firstSeq);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        json.accept(rs.getBytes(1));
                    }
                }
            } catch (SQLException ex) {
                throw new StoreException("cannot read the voided statements: " + ex.getMessage(), ex);
            }
        }

        /** The agent's match rows from firstSeq's block on, by block, each table's rows OR-ed (SQLite has two). */
        private NavigableMap<Long, Long> matchBlocks(Connection c, String agentKey) throws SQLException {
            NavigableMap<Long, Long> out = new TreeMap<>();
            long entry;
            try (PreparedStatement ps = c.prepareStatement(db.sql("filter_key_id"))) {
                ps.setInt(1, FilterKey.Kind.AGENT.ordinal());
                ps.setString(2, agentKey);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return out;
                    }
                    entry = rs.getLong(1) * 2; // scope 0: every match
                }
            }
            // The recent table first: its rows only ever move into the main one (MatchScan), so a merge between the
            // two reads finds them in the second rather than in neither.
            List<String> queries = db.dialect() == Dialect.SQLITE
                    ? List.of("recent_match_blocks_from", "match_blocks_from") : List.of("match_blocks_from");
            for (String query : queries) {
                try (PreparedStatement ps = c.prepareStatement(db.sql(query))) {
                    ps.setLong(1, entry);
                    ps.setLong(2, firstSeq >> 6);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.merge(rs.getLong(1), rs.getLong(2), (a, b) -> a | b);
                        }
                    }
                }
            }
            return out;
        }
    }

    /** How many erasures are recorded: one more as each commits its change of the tables. */
    public long count() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("count_erasures"));
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException ex) {
            throw new StoreException("cannot count the erasures: " + ex.getMessage(), ex);
        }
    }

    /** The erasure recorded under {@code erasureId}, if it has changed the tables. */
    public java.util.Optional<Erasure> find(String erasureId) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("erasure_by_id"))) {
            ps.setString(1, erasureId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? java.util.Optional.of(erasure(rs)) : java.util.Optional.empty();
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot read erasure " + erasureId + ": " + ex.getMessage(), ex);
        }
    }

    private static Erasure erasure(ResultSet rs) throws SQLException {
        return new Erasure(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getLong(4), rs.getLong(5), rs.getLong(6),
                rs.getLong(7), rs.getLong(8), rs.getLong(9));
    }

    /** Every erasure recorded, oldest first. */
    public List<Erasure> list() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("list_erasures"));
             ResultSet rs = ps.executeQuery()) {
            List<Erasure> out = new ArrayList<>();
            while (rs.next()) {
                out.add(erasure(rs));
            }
            return out;
        } catch (SQLException ex) {
            throw new StoreException("cannot list the erasures: " + ex.getMessage(), ex);
        }
    }

    /**
     * Gives back to the database what deleted rows of {@code tables} took, so that no file keeps their bytes: on
     * PostgreSQL a VACUUM of each (outside a transaction); on SQLite, whose erasures delete with secure_delete (the
     * freed space is zeroed), a checkpoint that truncates the write-ahead log, the last file that held them.
     */
    public void vacuum(List<String> tables) {
        try (Connection c = db.newWriter()) {
            c.setAutoCommit(true);
            try (Statement s = c.createStatement()) {
                if (db.dialect() == Dialect.POSTGRESQL) {
                    for (String t : tables) {
                        s.execute("VACUUM " + t);
                    }
                } else {
                    try (ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                        if (rs.next() && rs.getInt(1) != 0) { // busy: a reader holds frames that still hold them
                            throw new StoreException("the database's write-ahead log could not be emptied: another "
                                    + "process has the database open; stop it and run 'cairn erase' again", null);
                        }
                    }
                }
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot vacuum " + tables + ": " + ex.getMessage(), ex);
        }
    }
}
