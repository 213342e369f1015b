package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The erasures asked of a running Cairn and not yet run: the process that serves {@code POST /admin/erasures} adds one,
 * the projector's process runs it and says what became of it. The request (which names the people) goes once it has
 * run; the status stays, for the process that waits to answer.
 */
public final class ErasureRequests {
    /** What became of a request. */
    public enum Status { PENDING, ERASED, NOTHING, OFFLINE, FAILED }

    /** A request waiting to run: the erasure's id, the log position the projector must have passed, what it erases. */
    public record Pending(String erasureId, long afterPosition, byte[] request) {
    }

    /** A request's status, and for {@link Status#OFFLINE} or {@link Status#FAILED} why. */
    public record Outcome(Status status, String why) {
    }

    private final Database db;

    public ErasureRequests(Database db) {
        this.db = db;
    }

    /**
     * Adds a request that erases the people of IFI keys {@code agentKeys}; false when the id is taken (ids are random:
     * ask again with another).
     */
    public boolean ask(String erasureId, long afterPosition, byte[] request, Collection<String> agentKeys) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("insert_erasure_request"))) {
            ps.setString(1, erasureId);
            ps.setLong(2, afterPosition);
            ps.setLong(3, System.currentTimeMillis());
            ps.setBytes(4, request);
            ps.setString(5, agentKeys.isEmpty() ? null : joined(agentKeys));
            ps.executeUpdate();
            return true;
        } catch (SQLException ex) {
            if (status(erasureId).isPresent()) {
                return false;
            }
            throw new StoreException("cannot store the erasure request: " + ex.getMessage(), ex);
        }
    }

    /** IFI keys in one column: each as its length, a colon and itself (a key may hold any character). */
    private static String joined(Collection<String> keys) {
        StringBuilder b = new StringBuilder();
        for (String k : keys) {
            b.append(k.length()).append(':').append(k);
        }
        return b.toString();
    }

    /** The IFI keys of the people whose erasure is asked and not finished. */
    public Set<String> agentsBeingErased() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("agents_being_erased"));
             ResultSet rs = ps.executeQuery()) {
            Set<String> out = new HashSet<>();
            while (rs.next()) {
                String keys = rs.getString(1);
                for (int at = 0; at < keys.length(); ) { // each key as its length, a colon, and the key
                    int colon = keys.indexOf(':', at);
                    int end = colon + 1 + Integer.parseInt(keys.substring(at, colon));
                    out.add(keys.substring(colon + 1, end));
                    at = end;
                }
            }
            return out;
        } catch (SQLException ex) {
            throw new StoreException("cannot read the erasure requests: " + ex.getMessage(), ex);
        }
    }

    /** The requests waiting to run, oldest first. */
    public List<Pending> pending() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("pending_erasure_requests"));
             ResultSet rs = ps.executeQuery()) {
            List<Pending> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new Pending(rs.getString(1), rs.getLong(2), rs.getBytes(3)));
            }
            return out;
        } catch (SQLException ex) {
            throw new StoreException("cannot read the erasure requests: " + ex.getMessage(), ex);
        }
    }

    /** Forgets what a request erases (the people it names), once it has run. */
    public void forget(String erasureId) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("forget_erasure_request"))) {
            ps.setString(1, erasureId);
            ps.executeUpdate();
        } catch (SQLException ex) {
            throw new StoreException("cannot forget erasure request " + erasureId + ": " + ex.getMessage(), ex);
        }
    }

    /** Says what became of a request, and forgets what it erased. */
    public void finish(String erasureId, Status status, String why) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("finish_erasure_request"))) {
            ps.setString(1, status.name().toLowerCase(java.util.Locale.ROOT));
            ps.setString(2, why);
            ps.setString(3, erasureId);
            ps.executeUpdate();
        } catch (SQLException ex) {
            throw new StoreException("cannot record what became of erasure " + erasureId + ": " + ex.getMessage(), ex);
        }
    }

    /** What became of a request; empty when there is none of that id. */
    public Optional<Outcome> status(String erasureId) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("erasure_request_status"))) {
            ps.setString(1, erasureId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Outcome(Status.valueOf(rs.getString(1)
                        .toUpperCase(java.util.Locale.ROOT)), rs.getString(2))) : Optional.empty();
            }
        } catch (SQLException ex) {
            throw new StoreException("cannot read erasure request " + erasureId + ": " + ex.getMessage(), ex);
        }
    }
}
