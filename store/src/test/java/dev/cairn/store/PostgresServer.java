package dev.cairn.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of the test's own, made with the machine's {@code initdb} and {@code pg_ctl} on a free port
 * and a fresh data directory, so a test can stop and restart it while the shared server (the one of
 * {@link TestDatabase#ENV}) stays up for every other test. It runs as the {@code postgres} OS user when the test
 * runs as root (PostgreSQL refuses root), with fsync off (the tests kill nothing that needs it). {@link #close()}
 * stops it and deletes its directory; a shutdown hook does so too if the test JVM exits first.
 */
public final class PostgresServer implements AutoCloseable {
    private static final Path BINARIES = Path.of("/usr/lib/postgresql");

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asPostgresUser;
    private final Thread cleanup = new Thread(this::destroy, "postgres-server-cleanup");

    private PostgresServer(Path bin, Path dir, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** Creates a cluster in a new directory and starts it. */
    public static PostgresServer start() throws IOException, InterruptedException {
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("cairn-pg-");
        PostgresServer server = new PostgresServer(binaries(), dir, freePort(), root);
        Runtime.getRuntime().addShutdownHook(server.cleanup);
        try {
            if (root) {
                server.run(List.of("chown", "postgres:", dir.toString()), false);
            }
            server.run(List.of(server.bin.resolve("initdb").toString(), "-D", server.data().toString(), "-U",
                    "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"), true);
            server.startAgain();
            return server;
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The newest PostgreSQL release installed. */
    private static Path binaries() throws IOException {
        try (Stream<Path> versions = Files.list(BINARIES)) {
            return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(b -> Integer.parseInt(b.getParent().getFileName().toString())))
                    .orElseThrow(() -> new IllegalStateException("no PostgreSQL binaries under " + BINARIES));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException("these tests need PostgreSQL's initdb and pg_ctl under " + BINARIES, e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private Path data() {
        return dir.resolve("data");
    }

    /** A JDBC URL of the server's {@code postgres} database. */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Starts the stopped server and waits until it accepts connections. */
    public void startAgain() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-l", dir.resolve("server.log").toString(),
                "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
                        + " -c max_connections=50", "start"), true);
    }

    /** Stops the server the way an administrator's restart does: sessions are ended, commits kept. */
    public void stop() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "fast", "-w", "-t", "60", "stop"),
                true);
    }

    /** Stops the server, waits {@code downMillis}, and starts it again. */
    public void restart(long downMillis) throws IOException, InterruptedException {
        stop();
        Thread.sleep(downMillis);
        startAgain();
    }

    private void run(List<String> command, boolean asServerUser) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (asServerUser && asPostgresUser) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Path out = Files.createTempFile("cairn-pg-command", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 90 s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed with " + p.exitValue() + ":\n"
                        + Files.readString(out));
            }
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Stops the server however it is (immediate: nothing of it is kept) and deletes its directory. */
    private void destroy() {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "immediate", "-w",
                        "stop"), true);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // deleting the directory below is still worth it; a server left running dies with its files
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    @Override
    public void close() {
        destroy();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs destroy again, which finds nothing left
        }
    }
}
