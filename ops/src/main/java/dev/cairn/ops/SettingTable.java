package dev.cairn.ops;

import dev.cairn.auth.KeyAndSecret;
import dev.cairn.http.CorsPolicy;
import dev.cairn.ingest.AckMode;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.store.Database;
import dev.cairn.store.DatabaseUrl;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;

/**
 * Every setting of a Cairn process, each declared once: name, what its value is, the default, one line of
 * description, and the parser that types and checks it. The picocli options ({@link CommonOptions}), the
 * configuration file ({@link ConfigDefaults}), {@code --help} and the README's table (checked by a test) all come
 * from {@link #ALL}. Values are typed once at start ({@link Settings#parse}); nothing parses them again later.
 */
final class SettingTable {
    /** The largest max-body: a body of it, with the fields the sequencer adds, fits in one log entry. */
    static final long MAX_MAX_BODY = ChronicleLog.BLOCK_SIZE / 4 - (1 << 20);
    /** How many bodies of the largest size unauthenticated requests may hold together by default. */
    static final int UNAUTHENTICATED_BODIES = 4;

    static final Setting<Path> DATA = new Setting<>("data", "DIR", "data",
            "Directory for the default database and log", path(), constant(Path.of("data").toAbsolutePath()));
    static final Setting<DatabaseUrl> DB = new Setting<>("db", "URL", "jdbc:sqlite:DATA/cairn.db",
            "JDBC URL of the projection database: jdbc:sqlite:PATH or jdbc:postgresql://HOST:PORT/DB?user=U&password=P",
            text -> DatabaseUrl.parse(text), s -> DatabaseUrl.sqlite(s.get(DATA).resolve("cairn.db")));
    static final Setting<Path> LOG_DIR = new Setting<>("log", "DIR", "DATA/log",
            "Directory of the event log (local disk only)", path(), s -> s.get(DATA).resolve("log"));
    static final Setting<String> HOST = new Setting<>("host", "ADDRESS", "127.0.0.1", "Address to listen on",
            text -> text, constant("127.0.0.1"));
    static final Setting<Integer> PORT = new Setting<>("port", "PORT", "8080",
            "TCP port to listen on; 0 picks a free one", count("port", 0, 65535), constant(8080));
    static final Setting<KeyAndSecret> ADMIN_CREDENTIAL = new Setting<>("admin-credential", "KEY:SECRET",
            "generated on first start",
            "A credential with every scope (all, and admin), created if missing; as a flag the secret shows in the "
                    + "process list, so prefer the environment or --admin-credential-file",
            text -> KeyAndSecret.parse(text, "admin-credential"), SettingTable::adminCredentialFromFile);
    static final Setting<Path> ADMIN_CREDENTIAL_FILE = new Setting<>("admin-credential-file", "FILE", "none",
            "A file (keep it 0600) whose first line is the admin credential's KEY:SECRET", path(), constant(null));
    static final Setting<AckMode> ACK = new Setting<>("ack", "durable|visible", "visible",
            "Acknowledge writes once durable (synced to the log) or visible (also readable by queries); per request: "
                    + "header X-Cairn-Ack", SettingTable::ack, constant(AckMode.VISIBLE));
    static final Setting<Long> MAX_BODY = new Setting<>("max-body", "BYTES", "16777216",
            "Largest request body in bytes; larger ones get 413",
            whole("max-body", 1024, MAX_MAX_BODY, ": a write must fit in one log entry"), constant(16L << 20));
    static final Setting<Long> MAX_UNAUTHENTICATED_BODY = new Setting<>("max-unauthenticated-body", "BYTES",
            UNAUTHENTICATED_BODIES + " x --max-body",
            "Most body bytes held, all requests together, before their credentials are verified; 503 past it",
            whole("max-unauthenticated-body", 0, Long.MAX_VALUE, ""),
            s -> UNAUTHENTICATED_BODIES * s.get(MAX_BODY));
    static final Setting<Integer> DEFAULT_LIMIT = new Setting<>("default-limit", "N", "100",
            "Statements per page when a query gives no limit", count("default-limit", 1, Integer.MAX_VALUE),
            constant(100));
    static final Setting<Integer> MAX_LIMIT = new Setting<>("max-limit", "N", "1000",
            "Most statements per page; limit=0 asks for this", count("max-limit", 1, Integer.MAX_VALUE),
            constant(1000));
    static final Setting<Long> MAX_PAGE_BYTES = new Setting<>("max-page-bytes", "BYTES", "16777216",
            "Most bytes of statements and attachments in a page of GET /statements (a page always holds one statement)",
            whole("max-page-bytes", 1024, 1L << 30, ""), constant(16L << 20));
    static final Setting<Integer> RING_SIZE = new Setting<>("ring-size", "N", "4096",
            "Slots in the ingest ring, a power of two; a full ring answers 503", SettingTable::ringSize,
            constant(4096));
    static final Setting<Integer> PROJECTOR_BATCH = new Setting<>("projector-batch", "N", "20000",
            "Most statements per projector transaction", count("projector-batch", 1, Integer.MAX_VALUE),
            constant(20_000));
    static final Setting<Long> PROJECTOR_LINGER = new Setting<>("projector-linger", "MS", "500",
            "Longest time (ms) the projector of serve lets durable writes gather into one transaction while no writer "
                    + "waits for visibility; queries see them up to this much later. 0 applies each write at once",
            whole("projector-linger", 0, 10_000, " ms"), constant(500L));
    static final Setting<Long> READY_LAG = new Setting<>("ready-lag", "MS", "10000",
            "Projector lag (ms) past which /health/ready answers 503", whole("ready-lag", 0, Long.MAX_VALUE, ""),
            constant(10_000L));
    static final Setting<Integer> DB_READERS = new Setting<>("db-readers", "N", "8",
            "Database connections for reading (queries, the sequencer's checks, credentials); the projector has its own",
            count("db-readers", 1, 1000), constant(Database.DEFAULT_READERS));
    static final Setting<Long> HEADER_TIMEOUT = new Setting<>("header-timeout", "MS", "10000",
            "Milliseconds a request's headers may take to arrive, from their first byte; then the connection is closed",
            whole("header-timeout", 1, Integer.MAX_VALUE, " ms"), constant(10_000L));
    static final Setting<Long> BODY_TIMEOUT = new Setting<>("body-timeout", "MS", "60000",
            "Milliseconds a request's body may take to arrive whole; then 408 and the connection is closed",
            whole("body-timeout", 1, Long.MAX_VALUE, " ms"), constant(60_000L));
    static final Setting<Long> WRITE_TIMEOUT = new Setting<>("write-timeout", "MS", "60000",
            "Milliseconds a response may wait for its client to take more of it; then the connection is closed",
            whole("write-timeout", 1, Integer.MAX_VALUE, " ms"), constant(60_000L));
    static final Setting<Integer> MAX_CONNECTIONS = new Setting<>("max-connections", "N", "1000",
            "Most client connections open at once; further ones wait to be accepted",
            count("max-connections", 1, Integer.MAX_VALUE), constant(1000));
    static final Setting<CorsPolicy> CORS_ORIGINS = new Setting<>("cors-origins", "ORIGINS", "*",
            "Origins browser content may call from: * for any (every request still needs a credential), or a "
                    + "list such as https://lms.example.com,https://*.cdn.example.com", text -> CorsPolicy.parse(text, 0),
            constant(CorsPolicy.parse("*", 0)));
    static final Setting<Long> CORS_MAX_AGE = new Setting<>("cors-max-age", "SECONDS", "7200",
            "Seconds a browser may cache the answer to a preflight", whole("cors-max-age", 0, Long.MAX_VALUE, ""),
            constant(7200L));
    static final Setting<Long> VISIBLE_TIMEOUT = new Setting<>("visible-timeout", "MS", "5000",
            "Longest wait (ms) of an ack=visible write for the projector; past it the write gets its usual success "
                    + "with the header X-Cairn-Ack: durable",
            whole("visible-timeout", 1, Long.MAX_VALUE, ""), constant(5_000L));
    static final Setting<Long> DISK_RESERVE = new Setting<>("disk-reserve", "BYTES", "268435456",
            "Free bytes writes must leave on the disks of the log and of a SQLite database; below it writes get 507 "
                    + "and /health/ready says why",
            whole("disk-reserve", 0, Long.MAX_VALUE, ""), constant(256L << 20));
    static final Setting<XapiVersion> XAPI_VERSION = new Setting<>("xapi-version", "VERSION", "2.0.0",
            "The xAPI version reported on the 400 to a request without a version header (and the rules cairn "
                    + "import validates with): 2.0.0 or 1.0.3", SettingTable::xapiVersion, constant(XapiVersion.V2_0_0));

    /** A shorter retention period is more likely a slip (PT1M for a month) than a policy, and erases nearly all. */
    private static final Duration SHORTEST_RETENTION = Duration.ofHours(1);

    static final Setting<Duration> RETENTION = new Setting<>("retention", "DURATION", "none",
            "How long statements are kept, as an ISO 8601 duration such as P365D or PT12H, an hour at least (PT1M is a "
                    + "minute, not a month): the process that projects erases those stored longer ago, as cairn erase "
                    + "--stored-before does; none keeps every statement",
            SettingTable::retention, constant(null));
    static final Setting<Long> RETENTION_CHECK = new Setting<>("retention-check", "MS", "86400000",
            "How often (ms) the retention period is enforced, 60000 or more (each time that finds statements to erase "
                    + "is one erasure); the first time 10 s after start",
            whole("retention-check", 60_000, Long.MAX_VALUE, " ms"), constant(86_400_000L));

    /** Every setting, in the order of the README's table and of {@code --help}. */
    static final List<Setting<?>> ALL = List.of(DATA, DB, LOG_DIR, HOST, PORT, ADMIN_CREDENTIAL, ADMIN_CREDENTIAL_FILE,
            ACK, MAX_BODY, MAX_UNAUTHENTICATED_BODY, DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE_BYTES, RING_SIZE,
            PROJECTOR_BATCH, PROJECTOR_LINGER, READY_LAG, DB_READERS, HEADER_TIMEOUT, BODY_TIMEOUT, WRITE_TIMEOUT, MAX_CONNECTIONS,
            CORS_ORIGINS, CORS_MAX_AGE, VISIBLE_TIMEOUT, DISK_RESERVE, XAPI_VERSION, RETENTION, RETENTION_CHECK);

    private SettingTable() {
    }

    /** The checks that involve more than one setting, once each has its value. */
    static void checkTogether(Settings s) {
        if (s.given(ADMIN_CREDENTIAL) && s.given(ADMIN_CREDENTIAL_FILE)) {
            throw new IllegalArgumentException("admin-credential and admin-credential-file are both given; give one");
        }
        if (s.get(MAX_UNAUTHENTICATED_BODY) < s.get(MAX_BODY)) {
            throw new IllegalArgumentException("max-unauthenticated-body=" + s.get(MAX_UNAUTHENTICATED_BODY)
                    + " is below max-body=" + s.get(MAX_BODY));
        }
        if (s.get(PROJECTOR_LINGER) >= s.get(READY_LAG)) {
            throw new IllegalArgumentException("projector-linger=" + s.get(PROJECTOR_LINGER)
                    + " must be below ready-lag=" + s.get(READY_LAG) + ", or health would call a lingering projector late");
        }
        if (s.get(MAX_LIMIT) < s.get(DEFAULT_LIMIT)) {
            throw new IllegalArgumentException("default-limit=" + s.get(DEFAULT_LIMIT)
                    + " must be at least 1 and at most max-limit=" + s.get(MAX_LIMIT));
        }
    }

    private static <T> Function<Settings, T> constant(T value) {
        return s -> value;
    }

    private static Function<String, Path> path() {
        return text -> Path.of(text).toAbsolutePath();
    }

    /**
     * A whole number from {@code min} to {@code max} ({@link Long#MAX_VALUE}: no upper bound); outside them
     * "NAME=N is out of range (MIN-MAX UNIT)", or without an upper bound "NAME=N must be at least MIN UNIT".
     */
    private static Function<String, Long> whole(String name, long min, long max, String unit) {
        return text -> {
            long n;
            try {
                n = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + "=" + text + " is not a whole number");
            }
            if (n >= min && n <= max) {
                return n;
            }
            if (max != Long.MAX_VALUE) {
                throw new IllegalArgumentException(name + "=" + n + " is out of range (" + min + "-" + max + unit + ")");
            }
            throw new IllegalArgumentException(name + "=" + n
                    + (min == 0 ? " must not be negative" : " must be at least " + min + unit));
        };
    }

    /** A count from {@code min} to {@code max}, as {@link #whole}; {@link Integer#MAX_VALUE} is no upper bound. */
    private static Function<String, Integer> count(String name, int min, int max) {
        Function<String, Long> n = whole(name, min, max == Integer.MAX_VALUE ? Long.MAX_VALUE : max, "");
        return text -> {
            long v = n.apply(text);
            if (v > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + "=" + v + " is out of range (" + min + "-" + max + ")");
            }
            return (int) v;
        };
    }

    private static AckMode ack(String text) {
        return switch (text) {
            case "durable" -> AckMode.DURABLE;
            case "visible" -> AckMode.VISIBLE;
            default -> throw new IllegalArgumentException("ack=" + text + " must be durable or visible");
        };
    }

    private static int ringSize(String text) {
        long n = whole("ring-size", Long.MIN_VALUE, Long.MAX_VALUE, "").apply(text);
        if (n < 1 || n > 1 << 30 || Long.bitCount(n) != 1) {
            throw new IllegalArgumentException("ring-size=" + n + " must be a power of two");
        }
        return (int) n;
    }

    private static XapiVersion xapiVersion(String text) {
        return XapiVersion.fromHeader(text).orElseThrow(() ->
                new IllegalArgumentException("xapi-version=" + text + " must be 1.0.3 or 2.0.0"));
    }

    private static Duration retention(String text) {
        if (text.equals("none")) {
            return null;
        }
        Duration d;
        try {
            d = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("retention=" + text + " is not an ISO 8601 duration in days, hours, "
                    + "minutes or seconds (P365D, PT12H), nor none");
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("retention=" + text + " must be longer than nothing");
        }
        if (d.compareTo(SHORTEST_RETENTION) < 0) {
            throw new IllegalArgumentException("retention=" + text + " is shorter than an hour (PT1M is a minute, not a "
                    + "month; months are not a fixed length: give days, P30D); cairn erase --stored-before erases "
                    + "sooner, once");
        }
        if (d.compareTo(Duration.ofDays(1_000_000)) > 0) {
            throw new IllegalArgumentException("retention=" + text + " is longer than a million days; give none to "
                    + "keep every statement");
        }
        return d;
    }

    /** The first line of admin-credential-file, when it is given. */
    private static KeyAndSecret adminCredentialFromFile(Settings s) {
        Path file = s.get(ADMIN_CREDENTIAL_FILE);
        if (file == null) {
            return null;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("admin-credential-file=" + file + " cannot be read: " + e.getMessage(), e);
        }
        return KeyAndSecret.parse(lines.isEmpty() ? "" : lines.get(0).strip(), "admin-credential");
    }
}
