package dev.cairn.ops;

import dev.cairn.http.Principal;
import dev.cairn.log.EventLog;
import dev.cairn.log.WriterLock;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.Dialect;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cairn import}: statements from files or from another LRS, validated here and decided by the sequencer —
 * run in this process when no ingest holds the log, otherwise the running ingest's, over its statement API.
 * Statements without an id get one derived from their bytes and position, so running an interrupted import
 * again stores nothing twice.
 */
@Command(name = "import", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Import statements from files (JSON arrays or NDJSON, gzip too) or from another LRS (--from).",
            "Each statement is validated; valid ones are appended in large batches, each acknowledged once durable in "
                    + "the log; rejected ones are listed with their reasons and the import goes on. When no ingest "
                    + "runs on this log, the import is its sequencer; otherwise it sends its batches to the ingest "
                    + "(--target). Statements already stored are skipped, so an interrupted import (Ctrl-C stops "
                    + "after the current batch) resumes when run again. Exit code: 0 when everything was imported, "
                    + "1 when statements were rejected, a file was corrupt or the import failed, 2 for bad options."})
final class ImportCommand implements Callable<Integer> {
    private static final String NAME = "cairn import: ";

    @Mixin
    CommonOptions options;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..*",
            description = "Files of statements: a JSON array or NDJSON, optionally gzip-compressed.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--from", paramLabel = "URL",
            description = "Import from another LRS instead: its xAPI base URL (such as https://lrs.example.com/xapi), "
                    + "read through GET /statements, oldest first, following its more links.")
    URI from;

    @Option(names = "--credential", paramLabel = "KEY:SECRET",
            description = "With files: the credential whose authority the imported statements carry (default: "
                    + "--admin-credential). With --from: the credential for reading the other LRS.")
    String credential;

    @Option(names = "--target-credential", paramLabel = "KEY:SECRET",
            description = "With --from: the credential whose authority the imported statements carry (default: "
                    + "--admin-credential).")
    String targetCredential;

    @Option(names = "--target", paramLabel = "URL",
            description = "The running ingest's xAPI base URL, used when it holds the log "
                    + "(default: http://HOST:PORT/xapi from --host and --port, that is http://127.0.0.1:8080/xapi).")
    URI target;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "2000",
            description = "Statements per appended batch, 1 to 10000 (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "500",
            description = "With --from: statements to ask for per page (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads that parse and validate (default: the number of processors).")
    Integer threads;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Settings s;
        XapiVersion version;
        String writeCredential;
        try {
            s = options.settings().validate();
            version = checkOptions();
            writeCredential = from != null ? (targetCredential != null ? targetCredential : s.adminCredential())
                    : (credential != null ? credential : s.adminCredential());
            checkCredential("--target-credential", targetCredential);
            checkCredential("--credential", credential);
            checkLog(s.log());
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            return 2;
        }

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        ImportSink sink;
        try {
            sink = openSink(s, version, writeCredential, http, out);
        } catch (IllegalArgumentException e) {
            err.println(NAME + e.getMessage());
            return 2;
        } catch (StoreException | UncheckedIOException | IllegalStateException e) {
            err.println(NAME + e.getMessage());
            return 1;
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
        try (sink; ImportPipeline pipeline = new ImportPipeline(sink, version, batch,
                threads != null ? threads : Runtime.getRuntime().availableProcessors(), progress, stop::get)) {
            progress.note("importing " + sink.describe());
            if (from != null) {
                try (ImportRemote remote = new ImportRemote(http, from, credential, version, pageSize)) {
                    complete = pipeline.run(remote);
                } catch (ImportFileException e) {
                    failure = e.getMessage();
                }
            }
            for (Path f : files) {
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

        if (failure != null) {
            progress.summary("failed");
            err.println(NAME + failure);
            err.println("Statements acknowledged before the failure are stored; run the same import again to resume.");
            err.flush();
            return 1;
        }
        if (!complete) {
            progress.summary("interrupted");
            out.println("The log is synced. Run the same import again to resume: statements already stored are skipped.");
            out.flush();
            return 130;
        }
        progress.summary("done");
        if (corrupt > 0) {
            err.println(NAME + corrupt + " file" + (corrupt == 1 ? " was" : "s were") + " not imported (see above)");
        }
        if (progress.rejectedCount() > 0) {
            err.println(NAME + String.format("%,d", progress.rejectedCount()) + " statements were rejected (see above)");
        }
        err.flush();
        return corrupt > 0 || progress.rejectedCount() > 0 ? 1 : 0;
    }

    private XapiVersion checkOptions() {
        if (from == null && files.isEmpty()) {
            throw new IllegalArgumentException("name the FILEs to import, or another LRS with --from URL");
        }
        if (from != null && !files.isEmpty()) {
            throw new IllegalArgumentException("import either FILEs or --from URL, not both");
        }
        if (from != null) {
            if (from.getHost() == null || !(from.getScheme().equals("http") || from.getScheme().equals("https"))) {
                throw new IllegalArgumentException("--from=" + from + " must be an http or https URL");
            }
            if (credential == null) {
                throw new IllegalArgumentException("--from needs --credential KEY:SECRET to read the other LRS");
            }
        }
        if (target != null && (target.getHost() == null || target.getScheme() == null)) {
            throw new IllegalArgumentException("--target=" + target + " must be an http or https URL");
        }
        if (batch < 1 || batch > 10_000) {
            throw new IllegalArgumentException("--batch=" + batch + " must be between 1 and 10000");
        }
        if (pageSize < 1) {
            throw new IllegalArgumentException("--page-size=" + pageSize + " must be at least 1");
        }
        if (threads != null && threads < 1) {
            throw new IllegalArgumentException("--threads=" + threads + " must be at least 1");
        }
        // The common --xapi-version also names the rules imported statements are validated against.
        Optional<XapiVersion> v = XapiVersion.fromHeader(options.xapiVersion);
        if (v.isEmpty()) {
            throw new IllegalArgumentException("--xapi-version=" + options.xapiVersion + " must be 2.0.0 or 1.0.3");
        }
        for (Path f : files) {
            if (!Files.exists(f)) {
                throw new IllegalArgumentException("no such file: " + f);
            }
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new IllegalArgumentException(f + " is not a readable file");
            }
        }
        return v.get();
    }

    private static void checkCredential(String option, String value) {
        if (value != null) {
            int colon = value.indexOf(':');
            if (colon < 1 || colon == value.length() - 1) {
                throw new IllegalArgumentException(option + " must be KEY:SECRET with both parts non-empty");
            }
        }
    }

    private static void checkLog(Path log) {
        if (!Files.exists(log)) {
            throw new IllegalArgumentException("there is no log directory at " + log + " (run cairn serve once to "
                    + "create it, or give --data or --log)");
        }
        if (!Files.isDirectory(log)) {
            throw new IllegalArgumentException("the log path " + log + " is not a directory");
        }
        if (!Files.isReadable(log) || !Files.isWritable(log)) {
            throw new IllegalArgumentException("the log directory " + log + " is not readable and writable by this user");
        }
    }

    /** The sequencer in this process if no ingest holds the log, else the running ingest. */
    private ImportSink openSink(Settings s, XapiVersion version, String writeCredential, HttpClient http,
                                PrintWriter out) {
        Optional<WriterLock> lock;
        try {
            lock = WriterLock.tryAcquire(s.log());
        } catch (OverlappingFileLockException e) {
            lock = Optional.empty(); // the ingest runs in this very JVM (embedded, or a test)
        }
        if (lock.isEmpty()) {
            if (writeCredential == null) {
                throw new IllegalArgumentException("an ingest is appending to the log in " + s.log() + ", so the import "
                        + "goes through it: give the credential to write with, --"
                        + (from != null ? "target-credential" : "credential") + " KEY:SECRET");
            }
            URI endpoint = target != null ? target : URI.create("http://" + s.host() + ":" + s.port() + "/xapi");
            return new ImportHttpSink(http, endpoint, writeCredential, version);
        }
        EventLog log = null;
        Database db = null;
        try {
            checkDatabaseExists(s.db());
            log = ChronicleLog.open(s.log());
            db = Database.open(s.db());
            Principal writer = ImportAuthority.resolve(db, writeCredential, s.adminCredential(), out);
            return ImportRingSink.start(lock.get(), log, db, writer, version);
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
    private static void checkDatabaseExists(String url) {
        if (Dialect.of(url) != Dialect.SQLITE) {
            return; // PostgreSQL says itself when the database does not exist
        }
        String file = url.substring("jdbc:sqlite:".length());
        int query = file.indexOf('?');
        if (query >= 0) {
            file = file.substring(0, query);
        }
        if (file.startsWith("file:")) {
            file = file.substring("file:".length());
        }
        if (!file.isEmpty() && !file.equals(":memory:") && !Files.isRegularFile(Path.of(file))) {
            throw new IllegalArgumentException("there is no database at " + file + " (run cairn serve once to create "
                    + "it, or give --data or --db)");
        }
    }
}
