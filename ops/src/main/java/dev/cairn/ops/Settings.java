package dev.cairn.ops;

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
 * @param diskReserveBytes the free space writes leave on the disks of the log and of a SQLite database (507 below it)
 */
public record Settings(String host, int port, Path data, String db, Path log, String adminCredential, String ack,
                       long maxBodyBytes, int defaultLimit, int maxLimit, int ringSize, int projectorBatch,
                       long readyLagMillis, String xapiVersion, long diskReserveBytes) {
    public static final long DEFAULT_READY_LAG_MILLIS = 10_000;
    public static final long DEFAULT_DISK_RESERVE_BYTES = 256L << 20;

    /** Settings with the default readiness lag. */
    public Settings(String host, int port, Path data, String db, Path log, String adminCredential, String ack,
                    long maxBodyBytes, int defaultLimit, int maxLimit, int ringSize, int projectorBatch) {
        this(host, port, data, db, log, adminCredential, ack, maxBodyBytes, defaultLimit, maxLimit, ringSize,
                projectorBatch, DEFAULT_READY_LAG_MILLIS, XapiVersion.V2_0_0.header(), DEFAULT_DISK_RESERVE_BYTES);
    }

    /** These settings with another disk reserve. */
    public Settings withDiskReserve(long bytes) {
        return new Settings(host, port, data, db, log, adminCredential, ack, maxBodyBytes, defaultLimit, maxLimit,
                ringSize, projectorBatch, readyLagMillis, xapiVersion, bytes);
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
        if (maxBodyBytes < 1024) {
            throw new IllegalArgumentException("max-body=" + maxBodyBytes + " is below 1024 bytes");
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
        if (projectorBatch < 1) {
            throw new IllegalArgumentException("projector-batch=" + projectorBatch + " must be at least 1");
        }
        return this;
    }
}
