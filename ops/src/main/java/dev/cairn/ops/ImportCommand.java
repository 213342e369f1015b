package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.ADMIN_CREDENTIAL;
import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.HOST;
import static dev.cairn.ops.SettingTable.LOG_DIR;
import static dev.cairn.ops.SettingTable.PORT;
import static dev.cairn.ops.SettingTable.XAPI_VERSION;

import dev.cairn.auth.KeyAndSecret;
import dev.cairn.importer.ImportJob;
import dev.cairn.importer.Importer;
import dev.cairn.log.chronicle.ChronicleLog;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cairn import}: the command line of an {@link ImportJob}, which the {@link Importer} runs (the importer module
 * says how: validated here, decided by the sequencer in this process or by the running ingest).
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
        PrintWriter err = spec.commandLine().getErr();
        Settings s = options.settings();
        ImportJob job;
        try {
            KeyAndSecret write = credential("--target-credential", targetCredential);
            KeyAndSecret given = credential("--credential", credential);
            job = new ImportJob(files, from, from != null ? given : null, from != null ? write : given,
                    target, s.get(HOST), s.get(PORT), batch, pageSize, threads != null ? threads : Runtime.getRuntime().availableProcessors(),
                    s.get(XAPI_VERSION), s.get(LOG_DIR), s.get(DB), s.get(ADMIN_CREDENTIAL));
        } catch (IllegalArgumentException e) {
            err.println("cairn import: " + e.getMessage());
            return Importer.BAD_JOB;
        }
        return new Importer(job, ChronicleLog::open, spec.commandLine().getOut(), err).run();
    }

    private static KeyAndSecret credential(String option, String value) {
        return value == null ? null : KeyAndSecret.parse(value, option);
    }
}
