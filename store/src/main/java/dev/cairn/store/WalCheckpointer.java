package dev.cairn.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints SQLite's write-ahead log on its own thread after each projector commit, so that the projector never
 * stops to copy the committed pages into the database file and sync it, which is what SQLite's automatic
 * checkpoint does inside the committing connection. PASSIVE checkpoints never block the writer or the readers;
 * SQLite starts the log over from its beginning once a checkpoint has copied everything and no reader needs the
 * old frames.
 */
final class WalCheckpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpointer.class);

    private final Connection connection;
    private final Thread thread;
    private volatile boolean requested;
    private volatile boolean running = true;

    private WalCheckpointer(Connection connection) {
        this.connection = connection;
        this.thread = new Thread(this::run, "cairn-sqlite-checkpoint");
        this.thread.setDaemon(true);
    }

    /** Turns the automatic checkpoint of {@code writer} off and starts checkpointing for it. */
    static WalCheckpointer start(Database db, Connection writer) throws SQLException {
        try (Statement s = writer.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint=0");
        }
        WalCheckpointer c = new WalCheckpointer(db.newWriter());
        c.thread.start();
        return c;
    }

    /** Asks for a checkpoint of what is committed now. */
    void request() {
        requested = true;
        LockSupport.unpark(thread);
    }

    private void run() {
        while (running) {
            if (!requested) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
                continue;
            }
            requested = false;
            try (Statement s = connection.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(PASSIVE)");
            } catch (SQLException e) {
                LOG.warn("checkpointing the SQLite write-ahead log failed (retried after the next commit): {}",
                        e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            LOG.warn("closing the checkpoint connection failed: {}", e.getMessage());
        }
    }
}
