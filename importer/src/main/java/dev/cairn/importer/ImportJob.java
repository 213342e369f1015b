package dev.cairn.importer;

import dev.cairn.auth.KeyAndSecret;
import dev.cairn.store.DatabaseUrl;
import dev.cairn.xapi.XapiVersion;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One run of an import, typed and checked once: where the statements come from (files, or another LRS), where they
 * go (the log and database of this Cairn, or its running ingest), with whose authority, and how it is paced.
 * Messages name the option a user gives ({@code --batch}), since the command line is where a job comes from.
 *
 * @param files           files of statements (JSON arrays or NDJSON, gzip too); empty with {@code from}
 * @param from            another LRS's xAPI base URL to read, or null for files
 * @param readCredential  the credential for reading {@code from}, or null for files
 * @param writeCredential the credential whose authority the statements carry, or null for the admin credential
 * @param target          the running ingest's xAPI base URL, used when it holds the log; null for the one at
 *                        {@code host} and {@code port}
 * @param host            the address this Cairn listens on, from its settings
 * @param port            the port this Cairn listens on, from its settings
 * @param batch           statements per appended batch
 * @param pageSize        statements per page read from {@code from}
 * @param threads         threads that parse and validate
 * @param version         the xAPI rules statements are validated against
 * @param log             this Cairn's log directory
 * @param db              this Cairn's database
 * @param adminCredential the configured admin credential, or null
 */
public record ImportJob(List<Path> files, URI from, KeyAndSecret readCredential, KeyAndSecret writeCredential,
                        URI target, String host, int port, int batch, int pageSize, int threads, XapiVersion version, Path log, DatabaseUrl db,
                        KeyAndSecret adminCredential) {
    /** The most statements per batch: a batch must fit in one log entry. */
    public static final int MAX_BATCH = 10_000;

    public ImportJob {
        files = List.copyOf(files);
        if (from == null && files.isEmpty()) {
            throw new IllegalArgumentException("name the FILEs to import, or another LRS with --from URL");
        }
        if (from != null && !files.isEmpty()) {
            throw new IllegalArgumentException("import either FILEs or --from URL, not both");
        }
        if (from != null) {
            if (from.getHost() == null || from.getScheme() == null
                    || !(from.getScheme().equals("http") || from.getScheme().equals("https"))) {
                throw new IllegalArgumentException("--from=" + from + " must be an http or https URL");
            }
            if (readCredential == null) {
                throw new IllegalArgumentException("--from needs --credential KEY:SECRET to read the other LRS");
            }
        }
        if (target != null && (target.getHost() == null || target.getScheme() == null)) {
            throw new IllegalArgumentException("--target=" + target + " must be an http or https URL");
        }
        if (batch < 1 || batch > MAX_BATCH) {
            throw new IllegalArgumentException("--batch=" + batch + " must be between 1 and " + MAX_BATCH);
        }
        if (pageSize < 1) {
            throw new IllegalArgumentException("--page-size=" + pageSize + " must be at least 1");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads=" + threads + " must be at least 1");
        }
        for (Path f : files) {
            if (!Files.exists(f)) {
                throw new IllegalArgumentException("no such file: " + f);
            }
            if (!Files.isRegularFile(f) || !Files.isReadable(f)) {
                throw new IllegalArgumentException(f + " is not a readable file");
            }
        }
        checkLog(log);
    }

    /** Where the running ingest is: {@code target}, else http://HOST:PORT/xapi (an IPv6 address in brackets). */
    URI ingest() {
        if (target != null) {
            return target;
        }
        try {
            return new URI("http", null, host, port, "/xapi", null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("host=" + host + " makes no URL of the running ingest; give --target", e);
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
}
