package dev.cairn.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoints SQLite's write-ahead log on its own thread after projector commits, so that the projector does not
 * stop to copy the committed pages into the database file and sync it after every commit, which is what SQLite's
 * automatic checkpoint does inside the committing connection (the RESTART below copies what the last transaction
 * added and syncs, at most once per interval). At most one checkpoint runs per {@link #INTERVAL_NANOS}: a
 * stream of small commits (single-statement writes) then costs one copy and two syncs per interval rather than per
 * commit, and a page that many commits change is copied once. PASSIVE checkpoints never block the writer or the
 * readers; SQLite starts the log over from its beginning once a checkpoint has copied everything and no reader
 * needs the old frames. A projector that commits batch after batch (a replay, a long import) never leaves such a
 * moment, and the log would grow without end; so once its file passes {@link #MAX_WAL_BYTES}, the writer itself
 * runs a TRUNCATE checkpoint between two transactions: it copies what the PASSIVE ones left and empties the log file.
 *
 * <p>A stream of small commits leaves no such moment either: SQLite starts the log over only when a writer begins at
 * a moment the last checkpoint had copied every frame, and with a commit every millisecond a checkpoint every 500 ms
 * never has. The file then grew to {@link #MAX_WAL_BYTES}, every commit writing pages the kernel had to allocate on
 * disk and in its cache, and was truncated: a single writer's statement cost ~0.5 ms of CPU in those writes. So when
 * a PASSIVE checkpoint has copied every frame of a log past {@link #RESTART_BYTES}, the writer, before its next
 * transaction, runs a RESTART checkpoint on this thread's connection (a moment it holds no lock: on this thread the
 * RESTART would almost never find one under a steady load), which makes that transaction write from the file's start
 * again, over pages already allocated. It does not wait (busy timeout 0): a reader still reading old frames makes it
 * give up until the next checkpoint; nor does the writer wait for a checkpoint running on this thread.
 *
 * <p>Once the projector has committed nothing for {@link #IDLE_NANOS}, this thread runs the writer's idle work (see
 * {@link IdleWork}) and empties the log file too. Until
 * then the file keeps the size of the largest backlog since it was last emptied: space a disk under the reserve may
 * be short of (writes are refused, so nothing commits and nothing else would empty it), and frames every read must
 * look through (after a bulk load, reads are slower until the log is emptied).
 */
final class WalCheckpointer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WalCheckpointer.class);
    /** The size past which the log file is emptied: many projector batches' worth. */
    static final long MAX_WAL_BYTES = 256L << 20;
    /** The frames a fully checkpointed log holds before it is started over (RESTART). */
    static final long RESTART_BYTES = 4L << 20;
    /** The least time between two PASSIVE checkpoints. */
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** How long the projector commits nothing before the log file is emptied. */
    static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Work of the writer's that is best done while it is idle, run on this thread's connection (in auto-commit, busy
     * timeout 0: a writer that begins meanwhile makes it give up until the next idle time) before the log is emptied.
     */
    interface IdleWork {
        IdleWork NONE = c -> { };

        void run(Connection c) throws SQLException;
    }

    private final Connection connection;
    private final IdleWork idleWork;
    private final Path wal;
    private final long maxWalBytes;
    private final long restartBytes;
    /** A frame's bytes in the log: a page and its header. */
    private final long frameBytes;
    private final Thread thread;
    private volatile boolean requested;
    private volatile boolean running = true;
    private volatile long lastCommitNanos = System.nanoTime();
    /** Commits since the log file was last emptied: the file holds frames. */
    private volatile boolean written;
    /** A transaction of the writer is open: the projector is not idle, however long it takes. */
    private volatile boolean open;
    private volatile long passiveCheckpoints;
    /** The last PASSIVE checkpoint copied every frame of a log past {@link #restartBytes}. */
    private volatile boolean restartWanted;
    private volatile long restarts;
    /** The last TRUNCATE before a transaction found a reader of old frames (warned once until one succeeds). */
    private boolean truncateRefused;
    /** The busy timeout of this checkpointer's connection, restored after each checkpoint that does not wait. */
    private final int busyMillis;
    /** One checkpoint at a time (SQLite refuses a second at once), on either connection. */
    private final ReentrantLock checkpointing = new ReentrantLock();

    private WalCheckpointer(Connection connection, IdleWork idleWork, Path wal, long maxWalBytes, long restartBytes,
                            long frameBytes) throws SQLException {
        this.connection = connection;
        this.idleWork = idleWork;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("PRAGMA busy_timeout")) {
            rs.next();
            this.busyMillis = rs.getInt(1);
        }
        this.wal = wal;
        this.maxWalBytes = maxWalBytes;
        this.restartBytes = restartBytes;
        this.frameBytes = frameBytes;
        this.thread = new Thread(this::run, "cairn-sqlite-checkpoint");
        this.thread.setDaemon(true);
    }

    /** Turns the automatic checkpoint of {@code writer} off and starts checkpointing for it. */
    static WalCheckpointer start(Database db, Connection writer) throws SQLException {
        return start(db, writer, IdleWork.NONE);
    }

    /** {@link #start(Database, Connection)}, running {@code idleWork} whenever the writer is idle. */
    static WalCheckpointer start(Database db, Connection writer, IdleWork idleWork) throws SQLException {
        return start(db, writer, idleWork, MAX_WAL_BYTES, RESTART_BYTES);
    }

    /**
     * {@link #start(Database, Connection)}, emptying the log once its file passes {@code maxWalBytes} and starting it
     * over once a checkpoint has copied {@code restartBytes} of it.
     */
    static WalCheckpointer start(Database db, Connection writer, long maxWalBytes, long restartBytes)
            throws SQLException {
        return start(db, writer, IdleWork.NONE, maxWalBytes, restartBytes);
    }

    private static WalCheckpointer start(Database db, Connection writer, IdleWork idleWork, long maxWalBytes,
                                         long restartBytes) throws SQLException {
        Path wal;
        long pageBytes;
        try (Statement s = writer.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint=0");
            try (ResultSet rs = s.executeQuery("SELECT file FROM pragma_database_list WHERE name = 'main'")) {
                rs.next();
                wal = Path.of(rs.getString(1) + "-wal");
            }
            try (ResultSet rs = s.executeQuery("PRAGMA page_size")) {
                rs.next();
                pageBytes = rs.getLong(1);
            }
        }
        Connection own = db.newWriter();
        WalCheckpointer c;
        try {
            c = new WalCheckpointer(own, idleWork, wal, maxWalBytes, restartBytes, pageBytes + 24);
        } catch (SQLException e) {
            own.close();
            throw e;
        }
        c.thread.start();
        return c;
    }

    /** Called by the writer when it has opened a transaction. */
    void afterBegin() {
        open = true;
    }

    /**
     * Called by the writer right after each commit: asks for a PASSIVE checkpoint of what is committed now (run at once
     * when the last one is an interval old, else when it is).
     */
    void afterCommit() {
        open = false;
        lastCommitNanos = System.nanoTime();
        written = true;
        if (!requested) {
            requested = true;
            LockSupport.unpark(thread);
        }
    }

    /**
     * Called by the writer before it opens a transaction, when it holds no lock: empties the log (TRUNCATE) once its
     * file has grown past the limit, waiting for a checkpoint in progress; or starts it over (RESTART) when the last
     * PASSIVE checkpoint copied all of it, unless a checkpoint is in progress. Both run on this checkpointer's
     * connection (the writer's stays in its transaction mode) and neither waits for a reader that still reads old
     * frames: SQLite cannot empty the log under it, and waiting the busy timeout before every transaction slowed the
     * projector to one transaction per timeout. The log then grows until the reader is done, said once in the log.
     */
    void beforeBegin() {
        if (walBytes() > maxWalBytes) {
            checkpointing.lock();
            try {
                boolean emptied = checkpoint("TRUNCATE", false).completed();
                if (!emptied && !truncateRefused) {
                    LOG.warn("the SQLite write-ahead log is {} MB, past its limit of {} MB, and cannot be emptied while"
                            + " a reader still reads older frames (a long query or export); tried again before each "
                            + "transaction", walBytes() >> 20, maxWalBytes >> 20);
                }
                truncateRefused = !emptied;
            } finally {
                checkpointing.unlock();
            }
        } else if (restartWanted && checkpointing.tryLock()) {
            try {
                restartWanted = false;
                if (checkpoint("RESTART", false).completed()) {
                    restarts++;
                }
            } finally {
                checkpointing.unlock();
            }
        }
    }

    /**
     * Called by the writer after a transaction failed and was rolled back: the disk may be full, and the log file
     * keeps the size of its largest transaction until emptied, so empty it now to give that space back.
     */
    void afterRollback() {
        open = false;
        checkpointing.lock();
        try {
            if (!checkpoint("TRUNCATE", true).completed()) {
                LOG.warn("emptying the SQLite write-ahead log after a failed transaction did not complete; it is {} MB",
                        walBytes() >> 20);
            }
        } finally {
            checkpointing.unlock();
        }
    }

    private void run() {
        long last = System.nanoTime() - INTERVAL_NANOS;
        while (running) {
            long wait = last + INTERVAL_NANOS - System.nanoTime();
            if (!requested || wait > 0) {
                if (!requested && written && !open && System.nanoTime() - lastCommitNanos >= IDLE_NANOS) {
                    emptyWhileIdle();
                }
                LockSupport.parkNanos(requested ? wait : Math.min(IDLE_NANOS, TimeUnit.SECONDS.toNanos(1)));
                continue;
            }
            requested = false;
            last = System.nanoTime();
            checkpointing.lock();
            try {
                Checkpoint c = checkpoint("PASSIVE", true);
                restartWanted = c.completed() && c.frames() == c.copied() && c.frames() * frameBytes >= restartBytes;
                passiveCheckpoints++;
            } finally {
                checkpointing.unlock();
            }
        }
    }

    /**
     * What {@code PRAGMA wal_checkpoint} answers: whether it completed (SQLite's busy column is 0), the frames in the log
     * and those copied into the database file. A checkpoint that failed with an error did not complete.
     */
    private record Checkpoint(boolean completed, long frames, long copied) {
        static final Checkpoint FAILED = new Checkpoint(false, -1, -1);
    }

    /**
     * A checkpoint of {@code mode} on this checkpointer's connection (in auto-commit, like every statement it runs),
     * under {@link #checkpointing}. Unless {@code wait}, it gives up at once rather than wait for the writer or a reader
     * (busy timeout 0 for it alone).
     */
    private Checkpoint checkpoint(String mode, boolean wait) {
        SqlCall<Checkpoint> pragma = c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("PRAGMA wal_checkpoint(" + mode + ")")) {
                return rs.next() ? new Checkpoint(rs.getInt(1) == 0, rs.getLong(2), rs.getLong(3)) : Checkpoint.FAILED;
            }
        };
        try {
            return wait ? pragma.call(connection) : withoutWaiting(pragma);
        } catch (SQLException e) {
            LOG.debug("a {} checkpoint of the SQLite write-ahead log failed (tried again): {}", mode, e.getMessage());
            return Checkpoint.FAILED;
        }
    }

    private interface SqlCall<T> {
        T call(Connection c) throws SQLException;
    }

    /** Runs {@code call} on this checkpointer's connection with busy timeout 0, then restores its timeout. */
    private <T> T withoutWaiting(SqlCall<T> call) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout=0");
            try {
                return call.call(connection);
            } finally {
                s.execute("PRAGMA busy_timeout=" + busyMillis);
            }
        }
    }

    /**
     * Runs the idle work, then empties the log file on this thread's connection while the projector is idle. SQLite
     * waits (the busy timeout) for a transaction the writer may begin meanwhile, and gives up while a reader still
     * reads older frames: the next idle second tries again.
     */
    private void emptyWhileIdle() {
        written = false; // a commit from here on asks for the next emptying
        try {
            withoutWaiting(c -> {
                idleWork.run(c);
                return null;
            });
        } catch (SQLException e) {
            LOG.debug("the SQLite writer's idle work failed (tried again when it is next idle): {}", e.getMessage());
        }
        checkpointing.lock();
        try {
            checkpoint("TRUNCATE", true);
        } finally {
            checkpointing.unlock();
        }
        if (walBytes() > 0) {
            written = true; // a reader kept old frames, or the writer committed meanwhile
        }
    }

    /** RESTART checkpoints that made the log start over, so far. */
    long restarts() {
        return restarts;
    }

    /** PASSIVE checkpoints run so far. */
    long passiveCheckpoints() {
        return passiveCheckpoints;
    }

    private long walBytes() {
        try {
            return Files.size(wal);
        } catch (IOException e) {
            return 0; // no log file (yet)
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
