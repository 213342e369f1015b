package dev.cairn.ops;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every process accepts, so one word changes a command from serve to another. Each can also come from
 * its environment variable ({@code --max-body} from {@code CAIRN_MAX_BODY}) or from the configuration file
 * ({@code max-body=...}); see {@link ConfigDefaults} for the order.
 */
final class CommonOptions {
    @Option(names = "--config",
            description = "A properties file of settings (name=value, names as the options without '--'); "
                    + "flags and environment variables win over it (env CAIRN_CONFIG).")
    Path config;

    @Option(names = "--data", defaultValue = "data",
            description = "Directory for the default database and log (env CAIRN_DATA; default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--db",
            description = "JDBC URL of the projection database (env CAIRN_DB; default: jdbc:sqlite:DATA/cairn.db).")
    String db;

    @Option(names = "--log",
            description = "Directory of the event log (env CAIRN_LOG; default: DATA/log).")
    Path log;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to listen on (env CAIRN_HOST; default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8080",
            description = "TCP port to listen on; 0 picks a free one (env CAIRN_PORT; default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--admin-credential",
            description = "KEY:SECRET of a credential with every scope, created if missing (env CAIRN_ADMIN_CREDENTIAL). "
                    + "Without it, a credential is generated on the first start and printed once. As a flag the "
                    + "secret is visible to every local user; prefer --admin-credential-file or the environment.")
    String adminCredential;

    @Option(names = "--admin-credential-file",
            description = "A file whose first line is the admin credential's KEY:SECRET, instead of --admin-credential "
                    + "(env CAIRN_ADMIN_CREDENTIAL_FILE).")
    Path adminCredentialFile;

    /** The command these options belong to: tells a value given on its command line from one given otherwise. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--ack", defaultValue = "visible",
            description = "When writes are acknowledged: 'visible' (readable by queries) or 'durable' (synced to the log); "
                    + "clients override it per request with the X-Cairn-Ack header (env CAIRN_ACK; default: ${DEFAULT-VALUE}).")
    String ack;

    @Option(names = "--max-body", defaultValue = "16777216",
            description = "Largest request body in bytes; larger ones get 413 (env CAIRN_MAX_BODY; default: ${DEFAULT-VALUE}).")
    long maxBody;

    @Option(names = "--max-unauthenticated-body",
            description = "Most body bytes held for requests not yet authenticated, all together (Alternate Request "
                    + "Syntax forms that carry their credentials); 503 past it (env CAIRN_MAX_UNAUTHENTICATED_BODY; "
                    + "default: 4 x max-body).")
    Long maxUnauthenticatedBody;

    @Option(names = "--default-limit", defaultValue = "100",
            description = "Statements per page when a query gives no limit (env CAIRN_DEFAULT_LIMIT; default: ${DEFAULT-VALUE}).")
    int defaultLimit;

    @Option(names = "--max-limit", defaultValue = "1000",
            description = "Most statements per page; limit=0 asks for this (env CAIRN_MAX_LIMIT; default: ${DEFAULT-VALUE}).")
    int maxLimit;

    @Option(names = "--max-page-bytes", defaultValue = "16777216",
            description = "Most bytes of statements and attachments in a page of GET /statements; a page that would pass "
                    + "it ends early with a more link, but holds at least one statement (env CAIRN_MAX_PAGE_BYTES; "
                    + "default: ${DEFAULT-VALUE}).")
    long maxPageBytes;

    @Option(names = "--ring-size", defaultValue = "4096",
            description = "Slots in the ingest ring, a power of two; a full ring answers 503 (env CAIRN_RING_SIZE; default: ${DEFAULT-VALUE}).")
    int ringSize;

    @Option(names = "--projector-batch", defaultValue = "20000",
            description = "Most statements the projector applies per transaction (env CAIRN_PROJECTOR_BATCH; default: ${DEFAULT-VALUE}).")
    int projectorBatch;

    @Option(names = "--ready-lag", defaultValue = "10000",
            description = "Projector lag in milliseconds past which /health/ready answers 503 (env CAIRN_READY_LAG; default: ${DEFAULT-VALUE}).")
    long readyLag;

    @Option(names = "--xapi-version", defaultValue = "2.0.0",
            description = "The xAPI version assumed where none is given: reported (X-Experience-API-Version) on the 400 to a "
                    + "request without a version header, and the rules 'cairn import' validates with: 2.0.0 or 1.0.3 "
                    + "(env CAIRN_XAPI_VERSION; default: ${DEFAULT-VALUE}).")
    String xapiVersion;

    @Option(names = "--cors-origins", defaultValue = Settings.DEFAULT_CORS_ORIGINS,
            description = "Origins that browser content may call Cairn from: * for any (every request still needs a "
                    + "credential), or a comma-separated list such as https://lms.example.com,https://*.cdn.example.com "
                    + "(env CAIRN_CORS_ORIGINS; default: ${DEFAULT-VALUE}).")
    String corsOrigins;

    @Option(names = "--cors-max-age", defaultValue = "" + Settings.DEFAULT_CORS_MAX_AGE_SECONDS,
            description = "Seconds a browser may cache the answer to a CORS preflight (env CAIRN_CORS_MAX_AGE; "
                    + "default: ${DEFAULT-VALUE}).")
    long corsMaxAge;

    @Option(names = "--header-timeout", defaultValue = "10000",
            description = "Milliseconds a request's headers may take to arrive, from their first byte; then the "
                    + "connection is closed (env CAIRN_HEADER_TIMEOUT; default: ${DEFAULT-VALUE}).")
    long headerTimeout;

    @Option(names = "--body-timeout", defaultValue = "60000",
            description = "Milliseconds a request's body may take to arrive whole; then the request gets 408 and the "
                    + "connection is closed (env CAIRN_BODY_TIMEOUT; default: ${DEFAULT-VALUE}).")
    long bodyTimeout;

    @Option(names = "--max-connections", defaultValue = "1000",
            description = "Most client connections open at once; further ones wait to be accepted "
                    + "(env CAIRN_MAX_CONNECTIONS; default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--visible-timeout", defaultValue = "5000",
            description = "Milliseconds an ack=visible write waits to become readable; past it, it is answered as durable "
                    + "(its usual success, with the header X-Cairn-Ack: durable) (env CAIRN_VISIBLE_TIMEOUT; default: ${DEFAULT-VALUE}).")
    long visibleTimeout;

    @Option(names = "--disk-reserve", defaultValue = "268435456",
            description = "Free bytes writes must leave on the disks of the log and of a SQLite database; below it writes "
                    + "get 507 and /health/ready says why (env CAIRN_DISK_RESERVE; default: ${DEFAULT-VALUE}).")
    long diskReserve;

    @Option(names = "--write-timeout", defaultValue = "60000",
            description = "Milliseconds a response may wait for its client to take more of it; then the connection is "
                    + "closed (env CAIRN_WRITE_TIMEOUT; default: ${DEFAULT-VALUE}).")
    long writeTimeout;

    private boolean warned;

    Settings settings() {
        Path dataDir = data.toAbsolutePath();
        return new Settings(host, port, dataDir, db != null ? db : Cairn.defaultDb(dataDir),
                log != null ? log.toAbsolutePath() : Cairn.defaultLog(dataDir), adminCredential(), ack, maxBody,
                defaultLimit, maxLimit, ringSize, projectorBatch, readyLag, xapiVersion, corsOrigins, corsMaxAge,
                headerTimeout, bodyTimeout, maxConnections, visibleTimeout, maxPageBytes,
                maxUnauthenticatedBody != null ? maxUnauthenticatedBody : Settings.UNAUTHENTICATED_BODIES * maxBody,
                diskReserve, writeTimeout);
    }

    /** The admin credential from its file, else as given; a secret given as a flag is warned about once. */
    private String adminCredential() {
        if (adminCredentialFile == null) {
            if (adminCredential != null && !warned && command != null && command.commandLine() != null
                    && command.commandLine().getParseResult() != null
                    && command.commandLine().getParseResult().hasMatchedOption("--admin-credential")) {
                warned = true;
                System.err.println("cairn: warning: --admin-credential shows the secret to every local user (in the "
                        + "process list); give it with --admin-credential-file or CAIRN_ADMIN_CREDENTIAL instead");
            }
            return adminCredential;
        }
        if (adminCredential != null) {
            throw new IllegalArgumentException("admin-credential and admin-credential-file are both given; give one");
        }
        try {
            List<String> lines = Files.readAllLines(adminCredentialFile);
            return lines.isEmpty() ? "" : lines.get(0).strip();
        } catch (IOException e) {
            throw new IllegalArgumentException("admin-credential-file=" + adminCredentialFile + " cannot be read: "
                    + e.getMessage(), e);
        }
    }
}
