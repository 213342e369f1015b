package dev.cairn.ops;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@code cairn} command in its own JVM, with the test JVM's classpath and JVM flags (Chronicle's among them). */
final class ChildProcess implements AutoCloseable {
    final String command;
    final int port;
    private final List<String> args;
    private final List<String> jvmOptions = new ArrayList<>();
    private final Path output;
    private Process process;

    ChildProcess(String command, Path output, String... options) throws IOException {
        this.command = command;
        this.port = freePort();
        this.output = output;
        this.args = new ArrayList<>(List.of(options));
        this.args.addAll(List.of("--port", String.valueOf(port)));
    }

    /** {@code cairn COMMAND} on the log and files in {@code data} and the database {@code db}, with the test credential. */
    static ChildProcess cairn(String command, Path data, String db) throws IOException {
        return new ChildProcess(command, data.resolve(command + ".out"), "--data", data.toString(), "--db", db,
                "--admin-credential", TestLrs.KEY + ":" + TestLrs.SECRET);
    }

    /** The ports handed to children of this JVM. */
    private static final java.util.Set<Integer> GIVEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A free port no other child of this JVM was given: children bind a second or so after they get theirs, and in
     * that time the system may offer the same port again (two children then race for it, and a test talks to the
     * wrong process).
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


    /** JVM options for the child, after the test JVM's own (so they win). */
    ChildProcess jvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    ChildProcess start() throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dchronicle")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx256m");
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), command));
        cmd.addAll(args);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
        return this;
    }

    /** Waits until the process answers its liveness probe. */
    ChildProcess awaitReady(HttpClient http) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String out = output();
                throw new IllegalStateException("cairn " + command + " exited with " + process.exitValue() + ":\n"
                        + out.substring(Math.max(0, out.length() - 4000)));
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return this;
                }
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        String out = output();
        throw new IllegalStateException("cairn " + command + " did not become ready in 120 s:\n"
                + out.substring(Math.max(0, out.length() - 4000)));
    }

    /** What the process printed so far. */
    String output() throws IOException {
        return java.nio.file.Files.readString(output);
    }

    /** Waits for a command that ends by itself ({@code replay}, {@code import}); its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException("cairn " + command + " did not end within " + timeout);
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook runs. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** SIGTERM: the graceful shutdown path (the JVM then exits with 143 after its shutdown hooks ran). */
    int stop() throws InterruptedException {
        process.destroy();
        return process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
