package dev.cairn.ops;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every process accepts, so one word changes a command from serve to another. */
final class CommonOptions {
    @Option(names = "--data", defaultValue = "${env:CAIRN_DATA:-data}",
            description = "Directory for the default database and log (env CAIRN_DATA; default: ${DEFAULT-VALUE}).")
    Path data;

    @Option(names = "--db", defaultValue = "${env:CAIRN_DB}",
            description = "JDBC URL of the projection database (env CAIRN_DB; default: jdbc:sqlite:DATA/cairn.db).")
    String db;

    @Option(names = "--log", defaultValue = "${env:CAIRN_LOG}",
            description = "Directory of the event log (env CAIRN_LOG; default: DATA/log).")
    Path log;

    @Option(names = "--host", defaultValue = "${env:CAIRN_HOST:-127.0.0.1}",
            description = "Address to listen on (env CAIRN_HOST; default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "${env:CAIRN_PORT:-8080}",
            description = "TCP port to listen on; 0 picks a free one (env CAIRN_PORT; default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--admin-credential", defaultValue = "${env:CAIRN_ADMIN_CREDENTIAL}",
            description = "KEY:SECRET of a credential with every scope, created if missing (env CAIRN_ADMIN_CREDENTIAL). "
                    + "Without it, a credential is generated on the first start and printed once.")
    String adminCredential;

    @Option(names = "--ack", defaultValue = "${env:CAIRN_ACK:-visible}",
            description = "When writes are acknowledged: 'visible' (readable by queries) or 'durable' (synced to the log); "
                    + "clients override it per request with the X-Cairn-Ack header (env CAIRN_ACK; default: ${DEFAULT-VALUE}).")
    String ack;

    @Option(names = "--max-body", defaultValue = "${env:CAIRN_MAX_BODY:-16777216}",
            description = "Largest request body in bytes; larger ones get 413 (env CAIRN_MAX_BODY; default: ${DEFAULT-VALUE}).")
    long maxBody;

    @Option(names = "--default-limit", defaultValue = "${env:CAIRN_DEFAULT_LIMIT:-100}",
            description = "Statements per page when a query gives no limit (env CAIRN_DEFAULT_LIMIT; default: ${DEFAULT-VALUE}).")
    int defaultLimit;

    @Option(names = "--max-limit", defaultValue = "${env:CAIRN_MAX_LIMIT:-1000}",
            description = "Most statements per page; limit=0 asks for this (env CAIRN_MAX_LIMIT; default: ${DEFAULT-VALUE}).")
    int maxLimit;

    @Option(names = "--ring-size", defaultValue = "${env:CAIRN_RING_SIZE:-4096}",
            description = "Slots in the ingest ring, a power of two; a full ring answers 503 (env CAIRN_RING_SIZE; default: ${DEFAULT-VALUE}).")
    int ringSize;

    @Option(names = "--projector-batch", defaultValue = "${env:CAIRN_PROJECTOR_BATCH:-5000}",
            description = "Most statements the projector applies per transaction (env CAIRN_PROJECTOR_BATCH; default: ${DEFAULT-VALUE}).")
    int projectorBatch;

    @Option(names = "--ready-lag", defaultValue = "${env:CAIRN_READY_LAG:-10000}",
            description = "Projector lag in milliseconds past which /health/ready answers 503 (env CAIRN_READY_LAG; default: ${DEFAULT-VALUE}).")
    long readyLag;

    Settings settings() {
        Path dataDir = data.toAbsolutePath();
        return new Settings(host, port, dataDir, db != null ? db : Cairn.defaultDb(dataDir),
                log != null ? log.toAbsolutePath() : Cairn.defaultLog(dataDir), adminCredential, ack, maxBody,
                defaultLimit, maxLimit, ringSize, projectorBatch, readyLag);
    }
}
