package dev.cairn.ops;

import dev.cairn.http.CorsPolicy;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Dialect;
import dev.cairn.xapi.XapiVersion;
import java.nio.file.Path;

/**
 * Everything a Cairn process is configured with, validated once at start ({@link #validate()}).
 *
 * @param host             address to listen on
 * @param port             TCP port to listen on (0 picks a free one)
 * @param data             directory for the default database and log
 * @param db               JDBC URL of the projection database
 * @param log              directory of the event log
 * @param adminCredential  KEY:SECRET of a credential with every scope, created if missing; null to generate one
 * @param ack              default acknowledgement of writes: durable or visible
 * @param maxBodyBytes     largest request body accepted (413 past it)
 * @param defaultLimit     statements per page when the client gives no limit
 * @param maxLimit         most statements per page (limit=0 means this)
 * @param ringSize         slots in the ingest ring (a power of two); a full ring answers 503
 * @param projectorBatch   most statements the projector applies in one transaction
 * @param readyLagMillis   the projector lag past which /health/ready answers 503
 * @param xapiVersion      the version reported to a request that names none or one Cairn does not speak
 * @param corsOrigins      the origins browser content may call from: {@code *} or a list ({@link CorsPolicy})
 * @param corsMaxAgeSeconds how long a browser may cache a preflight's answer
 * @param headerTimeoutMillis how long a request's headers may take to arrive, from their first byte
 * @param bodyTimeoutMillis   how long a request's body may take to arrive whole, from the end of its headers
 * @param maxConnections      most connections open at once; past it new ones wait in the listen backlog
 * @param visibleTimeoutMillis how long an {@code ack=visible} write waits to become visible before it is answered
 *                         as durable only
 * @param maxPageBytes     most bytes of statements and attachments in a page of GET /statements (always one statement)
 * @param maxUnauthenticatedBodyBytes the most body bytes held for requests not yet authenticated (Alternate Request
 *                         Syntax forms that carry their credentials), all together; 503 past it
 * @param diskReserveBytes the free space writes leave on the disks of the log and of a SQLite database (507 below it)
 * @param writeTimeoutMillis how long a response may wait for its client to take more of it before the connection is
 *                         closed (a client that does not read would otherwise hold the response in memory)
 */
public record Settings(String host, int port, Path data, String db, Path log, String adminCredential, String ack,
                       long maxBodyBytes, int defaultLimit, int maxLimit, int ringSize, int projectorBatch,
                       long readyLagMillis, String xapiVersion, String corsOrigins, long corsMaxAgeSeconds,
                       long headerTimeoutMillis, long bodyTimeoutMillis, int maxConnections,
                       long visibleTimeoutMillis, long maxPageBytes, long maxUnauthenticatedBodyBytes,
                       long diskReserveBytes, long writeTimeoutMillis) {
    public static final long DEFAULT_READY_LAG_MILLIS = 10_000;
    public static final String DEFAULT_CORS_ORIGINS = "*";
    public static final long DEFAULT_CORS_MAX_AGE_SECONDS = 7200;
    public static final long DEFAULT_HEADER_TIMEOUT_MILLIS = 10_000;
    public static final long DEFAULT_BODY_TIMEOUT_MILLIS = 60_000;
    public static final int DEFAULT_MAX_CONNECTIONS = 1000;
    public static final long DEFAULT_VISIBLE_TIMEOUT_MILLIS = 5_000;
    public static final long DEFAULT_MAX_PAGE_BYTES = 16 << 20;
    public static final long DEFAULT_DISK_RESERVE_BYTES = 256L << 20;
    public static final long DEFAULT_WRITE_TIMEOUT_MILLIS = 60_000;
    /** The largest max-body: a body of it, with the fields the sequencer adds, fits in one log entry. */
    static final long MAX_MAX_BODY = ChronicleLog.BLOCK_SIZE / 4 - (1 << 20);

    /** How many bodies of the largest size unauthenticated requests may hold together by default. */
    public static final int UNAUTHENTICATED_BODIES = 4;

    /** Settings with the default readiness lag and budget of unauthenticated bytes. */
    public Settings(String host, int port, Path data, String db, Path log, String adminCredential, String ack,
                    long maxBodyBytes, int defaultLimit, int maxLimit, int ringSize, int projectorBatch) {
        this(host, port, data, db, log, adminCredential, ack, maxBodyBytes, defaultLimit, maxLimit, ringSize,
                projectorBatch, DEFAULT_READY_LAG_MILLIS, XapiVersion.V2_0_0.header(), DEFAULT_CORS_ORIGINS,
                DEFAULT_CORS_MAX_AGE_SECONDS, DEFAULT_HEADER_TIMEOUT_MILLIS, DEFAULT_BODY_TIMEOUT_MILLIS,
                DEFAULT_MAX_CONNECTIONS, DEFAULT_VISIBLE_TIMEOUT_MILLIS, DEFAULT_MAX_PAGE_BYTES,
                UNAUTHENTICATED_BODIES * maxBodyBytes, DEFAULT_DISK_RESERVE_BYTES, DEFAULT_WRITE_TIMEOUT_MILLIS);
    }

    /** These settings with another disk reserve. */
    public Settings withDiskReserve(long bytes) {
        return new Settings(host, port, data, db, log, adminCredential, ack, maxBodyBytes, defaultLimit, maxLimit,
                ringSize, projectorBatch, readyLagMillis, xapiVersion, corsOrigins, corsMaxAgeSeconds,
                headerTimeoutMillis, bodyTimeoutMillis, maxConnections, visibleTimeoutMillis, maxPageBytes,
                maxUnauthenticatedBodyBytes, bytes, writeTimeoutMillis);
    }

    /** The CORS policy these settings name. */
    public CorsPolicy cors() {
        return CorsPolicy.parse(corsOrigins, corsMaxAgeSeconds);
    }

    /** Checks every value, with a message that names the setting and the value. */
    public Settings validate() {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port=" + port + " is out of range (0-65535)");
        }
        Dialect.of(db);
        if (adminCredential != null) {
            int colon = adminCredential.indexOf(':');
            if (colon < 1 || colon == adminCredential.length() - 1) {
                throw new IllegalArgumentException("admin-credential must be KEY:SECRET with both parts non-empty");
            }
        }
        if (!ack.equals("durable") && !ack.equals("visible")) {
            throw new IllegalArgumentException("ack=" + ack + " must be durable or visible");
        }
        if (maxBodyBytes < 1024 || maxBodyBytes > MAX_MAX_BODY) {
            throw new IllegalArgumentException("max-body=" + maxBodyBytes + " is out of range (1024-" + MAX_MAX_BODY
                    + ": a write must fit in one log entry)");
        }
        if (maxUnauthenticatedBodyBytes < maxBodyBytes) {
            throw new IllegalArgumentException("max-unauthenticated-body=" + maxUnauthenticatedBodyBytes
                    + " is below max-body=" + maxBodyBytes);
        }
        if (defaultLimit < 1 || maxLimit < defaultLimit) {
            throw new IllegalArgumentException("default-limit=" + defaultLimit + " must be at least 1 and at most max-limit="
                    + maxLimit);
        }
        if (Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException("ring-size=" + ringSize + " must be a power of two");
        }
        if (XapiVersion.fromHeader(xapiVersion).isEmpty()) {
            throw new IllegalArgumentException("xapi-version=" + xapiVersion + " must be 1.0.3 or 2.0.0");
        }
        if (readyLagMillis < 0) {
            throw new IllegalArgumentException("ready-lag=" + readyLagMillis + " must not be negative");
        }
        if (diskReserveBytes < 0) {
            throw new IllegalArgumentException("disk-reserve=" + diskReserveBytes + " must not be negative");
        }
        cors();
        if (visibleTimeoutMillis < 1) {
            throw new IllegalArgumentException("visible-timeout=" + visibleTimeoutMillis + " must be at least 1");
        }
        if (maxPageBytes < 1024 || maxPageBytes > 1 << 30) {
            throw new IllegalArgumentException("max-page-bytes=" + maxPageBytes + " is out of range (1024-1073741824)");
        }
        if (projectorBatch < 1) {
            throw new IllegalArgumentException("projector-batch=" + projectorBatch + " must be at least 1");
        }
        if (headerTimeoutMillis < 1 || headerTimeoutMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("header-timeout=" + headerTimeoutMillis + " is out of range (1-"
                    + Integer.MAX_VALUE + " ms)");
        }
        if (bodyTimeoutMillis < 1) {
            throw new IllegalArgumentException("body-timeout=" + bodyTimeoutMillis + " must be at least 1 ms");
        }
        if (writeTimeoutMillis < 1 || writeTimeoutMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("write-timeout=" + writeTimeoutMillis + " is out of range (1-"
                    + Integer.MAX_VALUE + " ms)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max-connections=" + maxConnections + " must be at least 1");
        }
        return this;
    }
}
