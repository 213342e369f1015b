package dev.cairn.ops;

import static dev.cairn.ops.SettingTable.ACK;
import static dev.cairn.ops.SettingTable.ADMIN_CREDENTIAL;
import static dev.cairn.ops.SettingTable.BODY_TIMEOUT;
import static dev.cairn.ops.SettingTable.CORS_MAX_AGE;
import static dev.cairn.ops.SettingTable.CORS_ORIGINS;
import static dev.cairn.ops.SettingTable.DATA;
import static dev.cairn.ops.SettingTable.DB;
import static dev.cairn.ops.SettingTable.DB_READERS;
import static dev.cairn.ops.SettingTable.DEFAULT_LIMIT;
import static dev.cairn.ops.SettingTable.DISK_RESERVE;
import static dev.cairn.ops.SettingTable.HEADER_TIMEOUT;
import static dev.cairn.ops.SettingTable.HOST;
import static dev.cairn.ops.SettingTable.LOG_DIR;
import static dev.cairn.ops.SettingTable.MAX_BODY;
import static dev.cairn.ops.SettingTable.MAX_CONNECTIONS;
import static dev.cairn.ops.SettingTable.MAX_LIMIT;
import static dev.cairn.ops.SettingTable.MAX_PAGE_BYTES;
import static dev.cairn.ops.SettingTable.MAX_UNAUTHENTICATED_BODY;
import static dev.cairn.ops.SettingTable.PORT;
import static dev.cairn.ops.SettingTable.PROJECTOR_BATCH;
import static dev.cairn.ops.SettingTable.PROJECTOR_LINGER;
import static dev.cairn.ops.SettingTable.READY_LAG;
import static dev.cairn.ops.SettingTable.RETENTION;
import static dev.cairn.ops.SettingTable.RETENTION_CHECK;
import static dev.cairn.ops.SettingTable.RING_SIZE;
import static dev.cairn.ops.SettingTable.VISIBLE_TIMEOUT;
import static dev.cairn.ops.SettingTable.WRITE_TIMEOUT;
import static dev.cairn.ops.SettingTable.XAPI_VERSION;

import dev.cairn.auth.AdminCredential;
import dev.cairn.auth.CredentialAuthenticator;
import dev.cairn.auth.KeyAndSecret;
import dev.cairn.erase.ErasureRequestRunner;
import dev.cairn.erase.RetentionSchedule;
import dev.cairn.erase.OnlineErasure;
import dev.cairn.erase.PendingErasure;
import dev.cairn.forward.ErasureWatch;
import dev.cairn.forward.Forwarding;
import dev.cairn.forward.TargetsHandler;
import dev.cairn.http.BodyReceiver;
import dev.cairn.http.CorsPolicy;
import dev.cairn.http.CredentialCheck;
import dev.cairn.http.HttpServer;
import dev.cairn.http.UnauthenticatedBodies;
import dev.cairn.ingest.CommandSubmitter;
import dev.cairn.ingest.DiskReserve;
import dev.cairn.ingest.DocumentWriteHandler;
import dev.cairn.ingest.IngestRing;
import dev.cairn.ingest.Sequencer;
import dev.cairn.ingest.StatementWriteHandler;
import dev.cairn.log.EventLog;
import dev.cairn.log.WriterLock;
import dev.cairn.log.chronicle.ChronicleLog;
import dev.cairn.projector.Projector;
import dev.cairn.projector.ProjectorRunner;
import dev.cairn.projector.WatermarkPoller;
import dev.cairn.query.ActivitiesHandler;
import dev.cairn.query.AgentsHandler;
import dev.cairn.query.DocumentReadHandler;
import dev.cairn.query.ExportHandler;
import dev.cairn.query.OnWorker;
import dev.cairn.query.StatementQueryHandler;
import dev.cairn.store.CredentialStore;
import dev.cairn.store.Database;
import dev.cairn.store.ErasureRequests;
import dev.cairn.store.ErasureStore;
import dev.cairn.store.DocumentReader;
import dev.cairn.store.ForwardStore;
import dev.cairn.store.ForwardingLock;
import dev.cairn.store.ForwardTarget;
import dev.cairn.store.KnownState;
import dev.cairn.store.OwnerOnly;
import dev.cairn.store.ProjectionWriter;
import dev.cairn.store.StatementReader;
import dev.cairn.store.WatermarkTracker;
import dev.cairn.xapi.DocumentKey;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.OptionMap;

/**
 * One Cairn process: the log, the database, and the parts its {@link Role}s ask for (the projector, the sequencer's
 * ring and write endpoints, the read endpoints), wired by hand in data-flow order. {@link #close()} stops them in
 * reverse: stop accepting, drain the ring and sync the log, let the projector apply what the log holds, close the
 * database and the log.
 */
public final class Cairn implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Cairn.class);
    /** How often a process without a projector reads the watermark (bounds ack=visible latency across processes). */
    private static final long WATERMARK_POLL_MILLIS = 2;

    private final Deque<AutoCloseable> parts = new ArrayDeque<>();
    private final int port;
    private final String credentialCreated;

    private Cairn(Settings s, Set<Role> roles, List<ForwardTarget> configuredTargets, Clock clock) throws Exception {
        long started = System.nanoTime();
        try {
            OwnerOnly.createDirectories(s.get(DATA));
            OwnerOnly.createDirectories(s.get(LOG_DIR));
            // serve holds everything an erasure needs (the log's writer lock, the projector's tables) and finishes
            // one that was interrupted before it opens them; a process of a split deployment cannot, alone.
            boolean serve = roles.contains(Role.INGEST) && roles.contains(Role.PROJECT);
            if (!serve) {
                PendingErasure.refuseToStart(s.get(LOG_DIR));
            }
            if (roles.contains(Role.INGEST)) {
                started(WriterLock.acquire(s.get(LOG_DIR)));
            }
            if (serve && PendingErasure.exists(s.get(LOG_DIR))) {
                EraseCommand.finishInterrupted(s);
            }
            PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new JvmMemoryMetrics().bindTo(metrics);
            new JvmGcMetrics().bindTo(metrics);
            new ProcessorMetrics().bindTo(metrics);
            EventLog log = started(ChronicleLog.open(s.get(LOG_DIR)));
            if (roles.contains(Role.INGEST)) {
                log.repairTornTail(); // here, not on the sequencer's thread: a log it cannot repair stops the start
            }
            Database db = started(Database.open(s.get(DB).jdbc(), metrics, s.get(DB_READERS)));
            DiskReserve reserve = diskReserve(s);
            WatermarkTracker tracker = new WatermarkTracker(db.watermark(), clock);

            Runnable wakeProjector = () -> { };
            OnlineErasure online = new OnlineErasure(log, s.get(LOG_DIR), db);
            Runnable wakeErasures = () -> { };
            BooleanSupplier projectorRunning = () -> true;
            if (roles.contains(Role.PROJECT)) {
                Projector projecting = new Projector(log, new ProjectionWriter(db), tracker, s.get(PROJECTOR_BATCH));
                // Alone, the projector is not woken by a sequencer and cannot see the ingest's writers wait.
                ProjectorRunner projector = roles.contains(Role.INGEST)
                        ? ProjectorRunner.besideIngest(projecting, TimeUnit.MILLISECONDS.toNanos(s.get(PROJECTOR_LINGER)))
                        : ProjectorRunner.alone(projecting);
                projector.start();
                started(projector);
                wakeProjector = projector::wake;
                projectorRunning = () -> projector.failure() == null;
                // Erasures asked through any process run here, on the projector's thread.
                ErasureRequestRunner erasures = new ErasureRequestRunner(new ErasureRequests(db), new ErasureStore(db),
                        online, projector, log);
                erasures.start();
                started(erasures);
                wakeErasures = erasures::wake;
                if (s.get(RETENTION) != null) {
                    RetentionSchedule retention = new RetentionSchedule(s.get(RETENTION), s.get(RETENTION_CHECK), clock,
                            System::nanoTime, new ErasureStore(db), new ErasureRequests(db), log, erasures::wake);
                    retention.start();
                    started(retention);
                }
            } else {
                WatermarkPoller poller = new WatermarkPoller(log, db, tracker, WATERMARK_POLL_MILLIS);
                poller.start();
                started(poller);
            }

            Supplier<Map<String, Forwarding.Lag>> forwardingLag = Map::of;
            if (roles.contains(Role.FORWARD)) {
                ForwardStore targets = new ForwardStore(db);
                configuredTargets.forEach(targets::configure);
                ErasureStore erasureRecords = new ErasureStore(db);
                Path logDir = s.get(LOG_DIR);
                ErasureWatch erasures = new ErasureWatch() {
                    @Override
                    public long erasures() {
                        return erasureRecords.count();
                    }

                    @Override
                    public boolean erasing() {
                        return PendingErasure.exists(logDir);
                    }
                };
                Forwarding forwarding = started(new Forwarding(log, targets, ForwardingLock.of(db),
                        s.get(XAPI_VERSION), metrics, erasures));
                forwarding.start();
                forwardingLag = forwarding::lag;
            }

            HttpApi.Writes writes = null;
            if (roles.contains(Role.INGEST)) {
                IngestRing ring = new IngestRing(new Sequencer(log, new KnownState(db), clock, wakeProjector, metrics,
                        reserve), s.get(RING_SIZE));
                started(ring);
                Gauge.builder("cairn.ingest.ring.occupancy", ring, IngestRing::occupancy)
                        .description("Write commands waiting for the sequencer").register(metrics);
                CommandSubmitter submitter = started(new CommandSubmitter(ring, tracker,
                        s.get(ACK), log.maxEntryBytes(), s.get(VISIBLE_TIMEOUT)));
                Map<DocumentKey.Kind, HttpHandler> documentWrites = new EnumMap<>(DocumentKey.Kind.class);
                for (DocumentKey.Kind kind : DocumentKey.Kind.values()) {
                    documentWrites.put(kind, new DocumentWriteHandler(kind, submitter, s.get(MAX_BODY)));
                }
                writes = new HttpApi.Writes(new StatementWriteHandler(submitter, s.get(MAX_BODY),
                        ForkJoinPool.commonPool()), documentWrites);
            }
            HttpApi.Reads reads = null;
            if (roles.contains(Role.QUERY)) {
                DocumentReader documents = new DocumentReader(db);
                Map<DocumentKey.Kind, HttpHandler> documentReads = new EnumMap<>(DocumentKey.Kind.class);
                for (DocumentKey.Kind kind : DocumentKey.Kind.values()) {
                    documentReads.put(kind, new OnWorker(new DocumentReadHandler(kind, documents)));
                }
                StatementReader statements = new StatementReader(db);
                reads = new HttpApi.Reads(new OnWorker(new StatementQueryHandler(statements, documents,
                        s.get(DEFAULT_LIMIT), s.get(MAX_LIMIT), s.get(MAX_PAGE_BYTES))), documentReads,
                        new OnWorker(new ActivitiesHandler(documents)), new OnWorker(new AgentsHandler(documents)),
                        new OnWorker(new ExportHandler(statements)));
            }

            CorsPolicy cors = s.get(CORS_ORIGINS).withMaxAge(s.get(CORS_MAX_AGE));
            HttpApi.Operator operator = new HttpApi.Operator(metrics,
                    new Health(log, tracker, s.get(READY_LAG), projectorRunning, metrics, reserve::shortfall,
                            forwardingLag));
            HttpHandler root;
            if (writes != null || reads != null) {
                KeyAndSecret created = AdminCredential.ensure(new CredentialStore(db), s.get(ADMIN_CREDENTIAL));
                credentialCreated = created == null ? null : created.key() + ":" + created.secret();
                CredentialAuthenticator authenticator = started(new CredentialAuthenticator(new CredentialStore(db)));
                CredentialCheck check = started(new CredentialCheck(authenticator, CredentialCheck.Limits.defaults(),
                        System::nanoTime));
                Gauge.builder("cairn.auth.verifications.pending", check, CredentialCheck::pending)
                        .description("Secret verifications running or waiting for a thread").register(metrics);
                UnauthenticatedBodies unauthenticated = new UnauthenticatedBodies(s.get(MAX_UNAUTHENTICATED_BODY));
                Gauge.builder("cairn.http.unauthenticated.body.bytes", unauthenticated, UnauthenticatedBodies::held)
                        .description("Body bytes held for requests not yet authenticated").register(metrics);
                root = HttpApi.build(check,
                        s.get(XAPI_VERSION), tracker::consistentThroughMillis,
                        s.get(MAX_BODY), unauthenticated, writes, reads,
                        new OnWorker(new TargetsHandler(new ForwardStore(db), s.get(XAPI_VERSION))),
                        new OnWorker(new ErasuresHandler(new ErasureStore(db), new ErasureRequests(db), online,
                                log::lastSyncedPosition, wakeErasures, s.get(XAPI_VERSION))), operator, cors,
                        s.get(BODY_TIMEOUT));
            } else {
                credentialCreated = null;
                root = HttpApi.operatorOnly(operator, s.get(XAPI_VERSION), cors,
                        s.get(BODY_TIMEOUT));
            }
            // Headers must arrive whole within header-timeout of their first byte (Undertow's parse timeout); a
            // connection idle between requests is closed after 60 s; bodies have body-timeout (BodyDeadlineHandler).
            HttpServer server = started(HttpServer.start(s.get(HOST), s.get(PORT), root, OptionMap.builder()
                    .set(UndertowOptions.MAX_ENTITY_SIZE, BodyReceiver.undertowCap(s.get(MAX_BODY)))
                    .set(UndertowOptions.NO_REQUEST_TIMEOUT, 60_000)
                    .set(UndertowOptions.REQUEST_PARSE_TIMEOUT, s.get(HEADER_TIMEOUT).intValue())
                    // Clients put braces, quotes, pipes and non-ASCII characters into query strings unencoded (a JSON
                    // agent in ?agent=, a browser's query string): decode them as UTF-8 as the client meant.
                    .set(UndertowOptions.ALLOW_UNESCAPED_CHARACTERS_IN_URL, true)
                    .getMap(), s.get(MAX_CONNECTIONS), s.get(WRITE_TIMEOUT).intValue(),
                    HttpServer.malformedAnswer(s.get(XAPI_VERSION).header(), cors)));
            port = server.port();
            LOG.info("Cairn {} listening on http://{}:{} (database {}, log {}) after {} ms", roles, s.get(HOST), port,
                    s.get(DB), s.get(LOG_DIR), (System.nanoTime() - started) / 1_000_000);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /** Starts every part; a part that fails to start closes the ones started before it. */
    public static Cairn start(Settings settings, Clock clock) throws Exception {
        return start(settings, EnumSet.allOf(Role.class), clock);
    }

    /** Starts the parts of {@code roles} only (separate processes share the log directory and the database). */
    public static Cairn start(Settings settings, Set<Role> roles, Clock clock) throws Exception {
        return new Cairn(settings, roles, List.of(), clock);
    }

    /** As {@link #start(Settings, Set, Clock)}, storing {@code targets} (of the configuration file) if it forwards. */
    public static Cairn start(Settings settings, Set<Role> roles, List<ForwardTarget> targets, Clock clock)
            throws Exception {
        return new Cairn(settings, roles, targets, clock);
    }

    private <T extends AutoCloseable> T started(T part) {
        parts.push(part);
        return part;
    }

    public int port() {
        return port;
    }

    /** The KEY:SECRET of the credential created at this start, or null when none was created. */
    public String credentialCreated() {
        return credentialCreated;
    }

    @Override
    public void close() {
        boolean clean = true;
        while (!parts.isEmpty()) {
            AutoCloseable part = parts.pop();
            try {
                part.close();
            } catch (Exception e) {
                clean = false;
                LOG.warn("closing {} failed", part, e);
            }
        }
        if (clean) {
            LOG.info("Cairn stopped cleanly");
        }
    }

    /** The reserve on the log's disk and, for SQLite, the database's. */
    static DiskReserve diskReserve(Settings s) {
        List<Path> paths = new ArrayList<>(List.of(s.get(LOG_DIR)));
        s.get(DB).sqliteFile().ifPresent(paths::add);
        return new DiskReserve(paths, s.get(DISK_RESERVE));
    }
}
