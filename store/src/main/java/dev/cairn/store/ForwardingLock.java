package dev.cairn.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The right to forward from one database, held by one process at a time, so that two forwarding processes (a second
 * {@code cairn forward}, or {@code cairn serve} beside one) never both send the same batches: the second stands by
 * and takes over when the first stops. The lock dies with its holder, even one killed with {@code kill -9}: on
 * PostgreSQL it is a session advisory lock, released when its connection closes; on SQLite, which only processes of
 * one host share, an operating-system lock on a file beside the database, released when the process ends.
 *
 * <p>{@link #hold()} is called again and again (each recheck of the targets): it takes the lock when it is free and,
 * while held, checks that it still is (a PostgreSQL restart ends the session, and with it the lock). A holder learns
 * that it lost the lock at its next check, so for a second or two after a restart of PostgreSQL two processes may
 * both send: duplicates then, never a loss, as at-least-once delivery allows.
 */
public final class ForwardingLock implements AutoCloseable {
    /** The advisory lock's key: "cairnfwd" in ASCII. */
    private static final long ADVISORY_KEY = 0x636169726e667764L;
    private static final int VALID_SECONDS = 2;
    private static final int NETWORK_TIMEOUT_MILLIS = 10_000;

    private final Database db;
    private final Path lockFile;
    private Connection session;
    private FileChannel channel;
    private FileLock fileLock;

    private ForwardingLock(Database db, Path lockFile) {
        this.db = db;
        this.lockFile = lockFile;
    }

    /** The forwarding lock of {@code db}; not held until {@link #hold()} takes it. */
    public static ForwardingLock of(Database db) {
        Path file = DatabaseUrl.parse(db.url()).sqliteFile().map(ForwardingLock::real)
                .map(f -> f.resolveSibling(f.getFileName() + ".forwarding.lock")).orElse(null);
        return new ForwardingLock(db, file);
    }

    /** The database file with its links resolved: two processes reaching it by different paths lock one file. */
    private static Path real(Path file) {
        try {
            return file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath(); // not made yet: the first process to make it names it
        }
    }

    /** Whether this process holds the lock now: takes it if it is free, and finds out if a held one was lost. */
    public synchronized boolean hold() {
        if (db.dialect() == Dialect.SQLITE) {
            return lockFile == null || holdFile(); // an in-memory database is this process's alone
        }
        return holdSession();
    }

    private boolean holdFile() {
        if (fileLock != null && fileLock.isValid()) {
            return true;
        }
        try {
            if (channel == null) {
                OwnerOnly.createFile(lockFile); // as every file beside the database: the owner's alone
                channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
            }
            fileLock = channel.tryLock();
            return fileLock != null;
        } catch (OverlappingFileLockException e) {
            return false; // another forwarding in this same process holds it
        } catch (IOException e) {
            throw new StoreException("cannot lock " + lockFile + ": " + e.getMessage(), e);
        }
    }

    private boolean holdSession() {
        try {
            if (session != null) {
                if (session.isValid(VALID_SECONDS)) {
                    return true;
                }
                closeSession(); // the session ended (a restart, a dropped connection): so did its lock
            }
            session = db.newWriter();
            session.setAutoCommit(true);
            session.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS); // a dead server cannot hang a recheck
            try (Statement s = session.createStatement()) {
                // A holder whose host died or lost its network loses the session, and the lock with it, within about
                // 15 s, not after the operating system's default keepalive of two hours.
                s.execute("SET tcp_keepalives_idle = 5");
                s.execute("SET tcp_keepalives_interval = 2");
                s.execute("SET tcp_keepalives_count = 3");
                s.execute("SET tcp_user_timeout = 10000");
            }
            try (PreparedStatement take = session.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                take.setQueryTimeout(VALID_SECONDS);
                take.setLong(1, ADVISORY_KEY);
                try (ResultSet r = take.executeQuery()) {
                    if (r.next() && r.getBoolean(1)) {
                        return true;
                    }
                }
            }
            closeSession();
            return false;
        } catch (SQLException e) {
            closeSession();
            throw new StoreException("cannot take the forwarding lock: " + e.getMessage(), e);
        }
    }

    private void closeSession() {
        if (session != null) {
            try {
                session.close();
            } catch (SQLException e) {
                // the session is gone either way, and its lock with it
            }
            session = null;
        }
    }

    /** Releases the lock, if held. */
    @Override
    public synchronized void close() {
        closeSession();
        try {
            if (channel != null) {
                channel.close(); // releases the file lock
            }
        } catch (IOException e) {
            // closed either way
        }
        channel = null;
        fileLock = null;
    }
}
