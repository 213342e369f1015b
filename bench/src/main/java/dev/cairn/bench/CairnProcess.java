package dev.cairn.bench;

import dev.cairn.ops.Main;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@code cairn serve} (or {@code ingest}, {@code project}, {@code query}) in a child JVM of its own, started from
 * this JVM's class path with its Chronicle flags, as users run it: the harnesses load it from their own process and
 * may kill it. Its output goes to a file beside its data. The other commands ({@code replay}, {@code credentials})
 * run here to their end.
 */
final class CairnProcess implements AutoCloseable {
    private static final long START_NANOS = 120_000_000_000L;
    /** The ports handed to children of this JVM. */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    private final Process process;
    private final int port;
    private final Path output;

    private CairnProcess(Process process, int port, Path output) {
        this.process = process;
        this.port = port;
        this.output = output;
    }

    /**
     * Starts a server ({@code cairn serve}) on a free port and waits until it answers.
     *
     * @param settings more settings as environment variables ({@code CAIRN_DB}, {@code CAIRN_BODY_TIMEOUT}, ...)
     */
    static CairnProcess serve(Path data, String credential, Map<String, String> settings) throws IOException,
            InterruptedException {
        return start("serve", freePort(), data, credential, settings);
    }

    /**
     * Starts {@code cairn COMMAND} ({@code serve}, {@code ingest}, {@code project} or {@code query}) on {@code port}
     * (a process restarted after a kill takes its predecessor's, as its clients expect) and waits until it answers.
     * Its output goes to {@code DATA.out} for {@code serve}, {@code DATA-COMMAND.out} for the others.
     *
     * @throws IllegalStateException when it exits or does not answer within 120 s; the message holds its output
     */
    static CairnProcess start(String command, int port, Path data, String credential, Map<String, String> settings)
            throws IOException, InterruptedException {
        List<String> cmd = java(command, "--port", String.valueOf(port), "--data", data.toString());
        Files.createDirectories(data);
        Path output = data.resolveSibling(data.getFileName() + (command.equals("serve") ? "" : "-" + command) + ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("CAIRN_ADMIN_CREDENTIAL", credential);
        pb.environment().putAll(settings);
        CairnProcess server = new CairnProcess(pb.start(), port, output);
        ServerProbe probe = new ServerProbe(port, credential, "");
        long deadline = System.nanoTime() + START_NANOS;
        while (!probe.alive()) {
            if (!server.process.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IllegalStateException("cairn " + command + " did not start:\n" + Files.readString(output));
            }
            Thread.sleep(200);
        }
        return server;
    }

    /**
     * A free port no other child of this JVM was given: a child binds a second or so after it gets its port, and in
     * that time the system may offer the same one again (two children would then race for it).
     */
    static int freePort() throws IOException {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket s = new ServerSocket(0)) {
                if (GIVEN.add(s.getLocalPort())) {
                    return s.getLocalPort();
                }
            }
        }
        throw new IOException("no free port that no other child was given");
    }

    /**
     * Runs another {@code cairn} command ({@code replay}, say) in a child JVM to its end.
     *
     * @return its exit code; its output goes to {@code output}
     */
    static int run(Path output, Map<String, String> settings, String... args) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(java(args)).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().putAll(settings);
        return pb.start().waitFor();
    }

    /**
     * Runs a {@code cairn} command ({@code credentials create ...}) to its end and fails unless it exits with 0.
     *
     * @return what it printed (its output is also left in {@code output})
     */
    private static String cli(Path output, Map<String, String> settings, String... args) throws IOException,
            InterruptedException {
        int exit = run(output, settings, args);
        String printed = Files.readString(output);
        if (exit != 0) {
            throw new IllegalStateException("cairn " + String.join(" ", args) + " exited " + exit + ":\n" + printed);
        }
        return printed;
    }

    /**
     * Runs {@code cairn credentials ARGS --db DB} ({@code create --key K --secret S --scope ...}, {@code revoke K}),
     * as an operator does beside a running server, its output in {@code dir}.
     *
     * @return what it printed
     */
    static String credentials(Path dir, String db, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("credentials"));
        all.addAll(List.of(args));
        all.addAll(List.of("--db", db));
        return cli(Files.createTempFile(dir, "credentials-" + args[0] + "-", ".out"), Map.of(),
                all.toArray(String[]::new));
    }

    /**
     * Runs {@code cairn targets ARGS --data DATA} ({@code add NAME --kind lrs ...}) beside a running server, its output
     * in {@code dir}.
     *
     * @return what it printed
     */
    static String targets(Path dir, Path data, String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("targets"));
        all.addAll(List.of(args));
        all.addAll(List.of("--data", data.toString()));
        return cli(Files.createTempFile(dir, "targets-" + args[0] + "-", ".out"), Map.of(), all.toArray(String[]::new));
    }

    /** The command line of a cairn command in a JVM like this one: its class path and Chronicle's flags. */
    private static List<String> java(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-Xmx512m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** The xAPI base URL, without a trailing slash. */
    String url() {
        return "http://127.0.0.1:" + port + "/xapi";
    }

    Path output() {
        return output;
    }

    /**
     * Stops the process as an operator does (SIGTERM): a server drains the ring, syncs the log and commits the
     * projector.
     */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException("cairn did not stop within 60 s of SIGTERM");
        }
    }

    /** Kills the process at once (SIGKILL), as a crash would. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }
}
