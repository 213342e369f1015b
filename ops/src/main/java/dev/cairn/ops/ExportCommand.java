package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.DB;

import dev.cairn.http.QueryParameters;
import dev.cairn.query.StatementExport;
import dev.cairn.store.Database;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.store.StoreException;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code cairn export}: the statements a statement query finds, from the database's tables, as NDJSON or CSV
 * ({@link StatementExport}). It reads as the query service does, so it runs beside a running Cairn.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Write the statements a query finds (GET /statements's filters, all pages, voided ones left "
                + "out) as NDJSON or CSV, to standard output or a file. Runs beside a running Cairn.")
final class ExportCommand implements Callable<Integer> {
    @Mixin
    CommonOptions options;

    @Option(names = "--query", paramLabel = "QUERY", defaultValue = "",
            description = "The filters as GET /statements's query string, e.g. "
                    + "'verb=http%%3A%%2F%%2Fadlnet.gov%%2Fexpapi%%2Fverbs%%2Fcompleted&since=2026-01-01T00:00:00Z' "
                    + "(agent, verb, activity, registration, related_activities, related_agents, since, until, "
                    + "ascending); none exports every statement, newest first.")
    String query;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "ndjson",
            description = "ndjson (each statement's stored JSON on a line) or csv (one row per statement, the "
                    + "columns docs/export.md lists); default ${DEFAULT-VALUE}.")
    StatementExport.Format format;

    @Option(names = "--output", paramLabel = "FILE",
            description = "Write to FILE (readable by its owner only, and replaced only once the export is whole) "
                    + "instead of standard output.")
    Path output;

    @Override
    public Integer call() throws IOException {
        Settings s = options.settings();
        StatementQuery q;
        try {
            q = StatementExport.query(QueryParameters.parse(query), XapiVersion.V2_0_0);
        } catch (XapiException e) {
            System.err.println("cairn export: --query: " + e.getMessage());
            return 2;
        }
        if (s.get(DB).sqliteFile().filter(f -> !Files.isRegularFile(f)).isPresent()) {
            System.err.println("cairn export: there is no database at " + s.get(DB).sqliteFile().get());
            return 1;
        }
        long started = System.nanoTime();
        long n;
        try (Database db = Database.open(s.get(DB).jdbc(), null, 1)) {
            n = output == null ? toStandardOutput(db, q) : toFile(db, q);
        } catch (StoreException | IOException e) {
            System.err.println("cairn export: stopped, the export is not whole: " + e.getMessage());
            return 1;
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.err.printf("cairn export: %,d statements in %.1f s (%,.0f/s)%n", n, seconds,
                n / Math.max(seconds, 1e-3));
        return 0;
    }

    private long export(Database db, StatementQuery q, OutputStream to) throws IOException {
        OutputStream out = new BufferedOutputStream(to, 1 << 16);
        long n = StatementExport.write(new StatementReader(db), q, format, out);
        out.flush();
        return n;
    }

    /**
     * To standard output, failing at the first write it could not take (a full disk, a closed pipe): System.out
     * swallows such errors, so each buffer written is checked.
     */
    private long toStandardOutput(Database db, StatementQuery q) throws IOException {
        PrintStream stdout = System.out;
        return export(db, q, new FilterOutputStream(stdout) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                stdout.write(b, off, len);
                if (stdout.checkError()) {
                    throw new IOException("standard output cannot be written (a full disk, or a closed pipe)");
                }
            }
        });
    }

    /**
     * Writes a new file of a name no one else can have chosen (readable by its owner only: statements hold personal
     * data) beside {@link #output}, syncs it and moves it into place once whole; a stopped export (an error, Ctrl-C)
     * deletes it, so {@link #output} is either the whole export or as it was.
     */
    private long toFile(Database db, StatementQuery q) throws IOException {
        Path target = output.toAbsolutePath();
        Path partial = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".partial");
        Thread cleanup = new Thread(() -> partial.toFile().delete(), "cairn-export-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (FileChannel file = FileChannel.open(partial, StandardOpenOption.WRITE)) {
            long n = export(db, q, Channels.newOutputStream(file));
            file.force(true);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return n;
        } finally {
            Files.deleteIfExists(partial);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }
}
