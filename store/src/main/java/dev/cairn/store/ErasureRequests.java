package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    /** Adds a request; false when the id is taken (ids are random: ask again with another). */
    public boolean ask(String erasureId, long afterPosition, byte[] request) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("insert_erasure_request"))) {
            ps.setString(1, erasureId);
            ps.setLong(2, afterPosition);
            ps.setLong(3, System.currentTimeMillis());
            ps.setBytes(4, request);
            ps.executeUpdate();
            return true;
        } catch (SQLException ex) {
            if (status(erasureId).isPresent()) {
                return false;
            }
            throw new StoreException("cannot store the erasure request: " + ex.getMessage(), ex);
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
