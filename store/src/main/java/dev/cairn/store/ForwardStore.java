package dev.cairn.store;

import dev.cairn.xapi.AnyOf;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Forwarding targets, their cursors in the log and their dead letters, in the database. Not derived from the log, so
 * replay leaves them alone. A cursor only moves by compare-and-set from the position its forwarder read, so two
 * forwarders of one target (a {@code cairn forward} started twice) never move it backwards or skip a batch.
 */
public final class ForwardStore {
    private final Database db;

    public ForwardStore(Database db) {
        this.db = db;
    }

    /** Stores a new target; false when one with that name exists. */
    public boolean insert(ForwardTarget t) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("insert_forward_target"))) {
            ps.setString(1, t.name());
            ps.setString(2, t.kind());
            ps.setString(3, t.url());
            ps.setString(4, t.credential());
            ps.setString(5, t.secret());
            ps.setString(6, t.filter());
            ps.setInt(7, t.batchSize());
            ps.setLong(8, t.maxDelayMillis());
            ps.setInt(9, t.paused() ? 1 : 0);
            if (t.logPosition() == null) {
                ps.setNull(10, Types.BIGINT);
            } else {
                ps.setLong(10, t.logPosition());
            }
            ps.setLong(11, System.currentTimeMillis());
            ps.setString(12, t.xapiVersion());
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            if (find(t.name()).isPresent()) {
                return false;
            }
            throw new StoreException("cannot store forwarding target " + t.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stores a target a configuration file gives: added when the database lacks it, else its definition (kind, URL,
     * credential, secret, filter, batch, delay, xAPI version) replaced, its cursor and pause kept.
     */
    public void configure(ForwardTarget t) {
        if (insert(t)) {
            return;
        }
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("define_forward_target"))) {
            ps.setString(1, t.kind());
            ps.setString(2, t.url());
            ps.setString(3, t.credential());
            ps.setString(4, t.secret());
            ps.setString(5, t.filter());
            ps.setInt(6, t.batchSize());
            ps.setLong(7, t.maxDelayMillis());
            ps.setString(8, t.xapiVersion());
            ps.setString(9, t.name());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot update forwarding target " + t.name() + ": " + e.getMessage(), e);
        }
    }

    /** Every target, oldest first. */
    public List<ForwardTarget> list() {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("list_forward_targets"));
             ResultSet rs = ps.executeQuery()) {
            List<ForwardTarget> out = new ArrayList<>();
            while (rs.next()) {
                long position = rs.getLong(10);
                Long cursor = rs.wasNull() ? null : position;
                out.add(new ForwardTarget(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getInt(7), rs.getLong(8), rs.getString(11),
                        rs.getInt(9) != 0, cursor));
            }
            return out;
        } catch (SQLException e) {
            throw new StoreException("cannot list forwarding targets: " + e.getMessage(), e);
        }
    }

    public Optional<ForwardTarget> find(String name) {
        return list().stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /** Pauses or resumes a target; false when there is none of that name. */
    public boolean setPaused(String name, boolean paused) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("pause_forward_target"))) {
            ps.setInt(1, paused ? 1 : 0);
            ps.setString(2, name);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("cannot " + (paused ? "pause" : "resume") + " forwarding target " + name + ": "
                    + e.getMessage(), e);
        }
    }

    /** Removes a target and its dead letters; false when there is none of that name. */
    public boolean delete(String name) {
        try (Connection c = db.reader()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement letters = c.prepareStatement(db.sql("delete_forward_dead_letters"));
                 PreparedStatement target = c.prepareStatement(db.sql("delete_forward_target"))) {
                letters.setString(1, name);
                letters.executeUpdate();
                target.setString(1, name);
                boolean deleted = target.executeUpdate() == 1;
                c.commit();
                return deleted;
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new StoreException("cannot remove forwarding target " + name + ": " + e.getMessage(), e);
        }
    }

    /** Starts a new target's cursor at {@code position} unless it has one; returns the cursor it has then. */
    public long start(String name, long position) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("start_forward_cursor"))) {
            ps.setLong(1, position);
            ps.setString(2, name);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot start the cursor of forwarding target " + name + ": " + e.getMessage(), e);
        }
        return find(name).map(ForwardTarget::logPosition).orElseThrow(() -> new StoreException(
                "forwarding target " + name + " was removed", null));
    }

    /**
     * Moves a target's cursor from {@code from} to {@code to}; false when it was not at {@code from} (another forwarder
     * moved it, or the target was removed).
     */
    public boolean advance(String name, long from, long to) {
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("advance_forward_cursor"))) {
            ps.setLong(1, to);
            ps.setString(2, name);
            ps.setLong(3, from);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("cannot move the cursor of forwarding target " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Parks a batch the target refused. The cursor moves past it with the rest of its entries ({@link #advance}), so a
     * forwarder killed between the two parks it again when it resumes: a dead letter may be recorded twice, never lost.
     */
    public void deadLetter(String name, long lastPosition, int statements, byte[] body, String contentType, int status,
                           String response) {
        try (Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement(db.sql("insert_forward_dead_letter"))) {
            ps.setString(1, name);
            ps.setLong(2, lastPosition);
            ps.setInt(3, statements);
            ps.setBytes(4, body);
            ps.setString(5, contentType);
            ps.setInt(6, status);
            ps.setString(7, response);
            ps.setLong(8, System.currentTimeMillis());
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot park a batch of forwarding target " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Drops every dead letter whose body holds one of {@code needles} (erased statements' ids, a person's address),
     * or that was parked before {@code parkedBeforeMillis} (null: none by time); returns how many.
     */
    public int dropDeadLettersHolding(List<byte[]> needles, Long parkedBeforeMillis) {
        List<Long> drop = new ArrayList<>();
        AnyOf erased = null; // one pass per body, however many ids; made only when there is a body to read
        try (Connection c = db.reader(); PreparedStatement ps = c.prepareStatement(db.sql("forward_dead_letter_bodies"));
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                boolean holds = parkedBeforeMillis != null && rs.getLong(3) < parkedBeforeMillis;
                if (!holds && !needles.isEmpty()) {
                    erased = erased == null ? AnyOf.of(needles) : erased;
                    holds = erased.in(rs.getBytes(2));
                }
                if (holds) {
                    drop.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read the dead letters: " + e.getMessage(), e);
        }
        for (long id : drop) {
            dropDeadLetter(id);
        }
        return drop.size();
    }


    /** All of a target's dead letters, oldest first, without their bodies. */
    public List<DeadLetter> deadLetters(String name) {
        return deadLetters(name, 0, Integer.MAX_VALUE);
    }

    /** Up to {@code limit} of a target's dead letters with an id above {@code afterId}, oldest first, without bodies. */
    public List<DeadLetter> deadLetters(String name, long afterId, int limit) {
        try (Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement(db.sql("list_forward_dead_letters"))) {
            ps.setString(1, name);
            ps.setLong(2, afterId);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<DeadLetter> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new DeadLetter(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4), rs.getInt(5),
                            rs.getString(6), rs.getLong(7), null, null));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new StoreException("cannot list the dead letters of " + name + ": " + e.getMessage(), e);
        }
    }

    /** One dead letter with its body. */
    public Optional<DeadLetter> deadLetter(long id) {
        try (Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement(db.sql("forward_dead_letter_by_id"))) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new DeadLetter(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getInt(4),
                        rs.getInt(5), rs.getString(6), rs.getLong(7), rs.getBytes(8), rs.getString(9)));
            }
        } catch (SQLException e) {
            throw new StoreException("cannot read dead letter " + id + ": " + e.getMessage(), e);
        }
    }

    /** Drops a dead letter (delivered by a retry, or given up); false when there is none of that id. */
    public boolean dropDeadLetter(long id) {
        try (Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement(db.sql("delete_forward_dead_letter"))) {
            ps.setLong(1, id);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreException("cannot drop dead letter " + id + ": " + e.getMessage(), e);
        }
    }

    /** Records what a retry of a dead letter got, when the target refused it again. */
    public void refusedAgain(long id, int status, String response) {
        try (Connection c = db.reader();
             PreparedStatement ps = c.prepareStatement(db.sql("update_forward_dead_letter"))) {
            ps.setInt(1, status);
            ps.setString(2, response);
            ps.setLong(3, System.currentTimeMillis());
            ps.setLong(4, id);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("cannot update dead letter " + id + ": " + e.getMessage(), e);
        }
    }
}
