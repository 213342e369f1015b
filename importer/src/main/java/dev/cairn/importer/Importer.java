package dev.cairn.importer;

import dev.cairn.auth.KeyAndSecret;
import dev.cairn.http.Principal;
import dev.cairn.log.EventLog;
import dev.cairn.log.WriterLock;
import dev.cairn.store.Database;
import dev.cairn.store.DatabaseUrl;
import dev.cairn.store.StoreException;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Runs an {@link ImportJob}: opens where its batches go (the sequencer in this process when no ingest holds the
 * log, otherwise the running ingest's statement API), reads every source through the {@link ImportPipeline}, and
 * reports progress and a summary. Ctrl-C or SIGTERM finishes the batches already read and syncs before the JVM
 * exits, so running the same import again resumes it.
 */
public final class Importer {
    /** Everything was imported. */
    public static final int DONE = 0;
    /** Statements were rejected, a file was corrupt, or the import failed. */
    public static final int INCOMPLETE = 1;
    /** The job cannot run as given (a credential missing, a database that is not there). */
    public static final int BAD_JOB = 2;
    /** Stopped by a signal after syncing what was read. */
    public static final int INTERRUPTED = 130;

    private static final String NAME = "cairn import: ";

    private final ImportJob job;
    private final Function<Path, EventLog> openLog;
    private final PrintWriter out;
    private final PrintWriter err;
    /** The sequencer's meters when it runs here: nothing scrapes an import, so its summary reports them. */
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    /** @param openLog opens the log in a directory (the implementation is the caller's choice) */
    public Importer(ImportJob job, Function<Path, EventLog> openLog, PrintWriter out, PrintWriter err) {
        this.job = job;
        this.openLog = openLog;
        this.out = out;
        this.err = err;
    }

    /** Runs the job to its end and returns the process's exit code. */
    public int run() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        ImportSink sink;
        try {
            sink = openSink(http);
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            return BAD_JOB;
        } catch (StoreException | UncheckedIOException | IllegalStateException e) {
            err.println(NAME + e.getMessage());
            return INCOMPLETE;
        }

        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        Thread onSignal = new Thread(() -> {
            stop.set(true); // Ctrl-C or SIGTERM: finish the batches already read, sync, then let the JVM exit
            try {
                finished.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "cairn-import-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);

        ImportProgress progress = new ImportProgress(out, err, System.console() != null);
        progress.countsPresent(sink.countsPresent());
        int corrupt = 0;
        boolean complete = true;
        String failure = null;
        try (sink; ImportPipeline pipeline = new ImportPipeline(sink, job.version(), job.batch(), job.threads(),
                progress, stop::get)) {
            progress.note("importing " + sink.describe());
            if (job.from() != null) {
                try (ImportRemote remote = new ImportRemote(http, job.from(), job.readCredential(), job.version(),
                        job.pageSize())) {
                    complete = pipeline.run(remote);
                } catch (ImportFileException e) {
                    failure = e.getMessage();
                }
            }
            for (Path f : job.files()) {
                if (stop.get()) {
                    complete = false;
                    break;
                }
                ImportFile file;
                try {
                    file = ImportFile.open(f);
                } catch (ImportFileException e) {
                    corrupt++;
                    progress.note("corrupt: " + e.getMessage() + "; nothing of this file was imported");
                    continue;
                }
                progress.note(f + ": " + String.format("%,d", file.count()) + " statements ("
                        + (file.layout() == ImportFile.Layout.ARRAY ? "JSON array" : "NDJSON") + ")");
                try (file) {
                    complete = pipeline.run(file);
                } catch (ImportFileException e) {
                    corrupt++;
                    progress.note("corrupt: " + e.getMessage());
                }
            }
        } catch (ImportFailedException e) {
            failure = e.getMessage();
        } catch (IOException e) {
            failure = "reading failed: " + e.getMessage();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down (Ctrl-C): the hook is waiting for us
            }
        }
        return summary(progress, failure, complete, corrupt);
    }

    private int summary(ImportProgress progress, String failure, boolean complete, int corrupt) {
        if (failure != null) {
            progress.summary("failed");
            err.println(NAME + failure);
            err.println("Statements acknowledged before the failure are stored; run the same import again to resume.");
            err.flush();
            return INCOMPLETE;
        }
        if (!complete) {
            progress.summary("interrupted");
            syncs();
            out.println("The log is synced. Run the same import again to resume: statements already stored are skipped.");
            out.flush();
            return INTERRUPTED;
        }
        progress.summary("done");
        syncs();
        if (corrupt > 0) {
            err.println(NAME + corrupt + " file" + (corrupt == 1 ? " was" : "s were") + " not imported (see above)");
        }
        if (progress.rejectedCount() > 0) {
            err.println(NAME + String.format("%,d", progress.rejectedCount()) + " statements were rejected (see above)");
        }
        err.flush();
        return corrupt > 0 || progress.rejectedCount() > 0 ? INCOMPLETE : DONE;
    }

    /** How the log's syncs went, when this process appended (the running ingest's own metrics show its). */
    private void syncs() {
        Timer sync = metrics.find("cairn.log.sync").timer();
        if (sync != null && sync.count() > 0) {
            out.printf("log: %,d sync%s, %.2f ms each on average%n", sync.count(), sync.count() == 1 ? "" : "s",
                    sync.mean(TimeUnit.MILLISECONDS));
        }
    }

    /** The sequencer in this process if no ingest holds the log, else the running ingest. */
    private ImportSink openSink(HttpClient http) {
        Optional<WriterLock> lock;
        try {
            lock = WriterLock.tryAcquire(job.log());
        } catch (OverlappingFileLockException e) {
            lock = Optional.empty(); // the ingest runs in this very JVM (embedded, or a test)
        }
        KeyAndSecret writeCredential = job.writeCredential() != null ? job.writeCredential() : job.adminCredential();
        if (lock.isEmpty()) {
            if (writeCredential == null) {
                throw new IllegalArgumentException("an ingest is appending to the log in " + job.log() + ", so the "
                        + "import goes through it: give the credential to write with, --"
                        + (job.from() != null ? "target-credential" : "credential") + " KEY:SECRET");
            }
            return new ImportHttpSink(http, job.ingest(), writeCredential, job.version());
        }
        EventLog log = null;
        Database db = null;
        try {
            checkDatabaseExists(job.db());
            log = openLog.apply(job.log());
            db = Database.open(job.db().jdbc());
            Principal writer = ImportAuthority.resolve(db, job.writeCredential(), job.adminCredential(), out);
            return ImportRingSink.start(lock.get(), log, db, writer, job.version(), metrics);
        } catch (RuntimeException e) {
            if (db != null) {
                db.close();
            }
            if (log != null) {
                log.close();
            }
            lock.get().close();
            throw e;
        }
    }

    /** An import adds to an existing LRS: a SQLite file that is not there is a wrong --data or --db, not a new one. */
    private static void checkDatabaseExists(DatabaseUrl url) {
        // PostgreSQL says itself when the database does not exist
        url.sqliteFile().filter(file -> !Files.isRegularFile(file)).ifPresent(file -> {
            throw new IllegalArgumentException("there is no database at " + file + " (run cairn serve once to create "
                    + "it, or give --data or --db)");
        });
    }
}
