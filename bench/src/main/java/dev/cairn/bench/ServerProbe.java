package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.bench.RawHttp.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What the load clients read of the server they test, with valid requests only: the ids of the statements it holds,
 * single documents, liveness, and its memory (RSS from /proc when its pid is known, heap and direct buffers from
 * /metrics).
 */
final class ServerProbe {
    private static final int PAGE = 500;
    /** A page is at most the server's page byte bound (16 MiB by default) and always holds one statement of up to max-body. */
    private static final int PROBE_BODY = 64 << 20;
    private final int port;
    private final String authorization;
    private final String pid;

    ServerProbe(int port, String credential, String pid) {
        this.port = port;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(credential.getBytes(StandardCharsets.UTF_8));
        this.pid = pid == null ? "" : pid.strip();
    }

    Answer get(String target) throws IOException {
        byte[] head = ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAuthorization: " + authorization
                + "\r\nX-Experience-API-Version: 2.0.0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        return RawHttp.exchange("127.0.0.1", port, head, FuzzRequest.Body.EMPTY, false, 60_000, PROBE_BODY);
    }

    /** Every statement id a plain GET /statements returns (voided ones are not), paging through {@code more}. */
    Set<UUID> statementIds() throws IOException {
        Set<UUID> ids = new HashSet<>();
        String target = "/xapi/statements?format=ids&limit=" + PAGE;
        for (int page = 0; page < 1_000_000 && !target.isEmpty(); page++) {
            Answer a = get(target);
            if (a.status() != 200 || a.body().length >= PROBE_BODY) {
                throw new IOException("GET " + target + " answered " + a.status() + " " + a.outcome() + ": "
                        + new String(a.body(), 0, Math.min(300, a.body().length), StandardCharsets.UTF_8));
            }
            JsonNode result = FuzzCases.JSON.readTree(a.body());
            for (JsonNode s : result.path("statements")) {
                ids.add(UUID.fromString(s.path("id").asText()));
            }
            target = result.path("more").asText("");
        }
        return ids;
    }

    boolean voided(UUID id) throws IOException {
        return get("/xapi/statements?voidedStatementId=" + id).status() == 200;
    }

    boolean alive() {
        if (!pid.isEmpty() && !Files.exists(Path.of("/proc", pid))) {
            return false;
        }
        try {
            return get("/health/live").status() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** Resident set size in KiB, or -1 without a pid. */
    long rssKib() {
        if (pid.isEmpty()) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /**
     * Heap used, direct buffers used and the heap's old generation in bytes, from /metrics (-1 for what cannot be
     * read). The old generation leaves out young garbage, and large buffers (humongous objects in G1) land in it
     * directly: it is the figure that shows memory a client makes the server hold.
     */
    long[] jvmMemory() {
        long heap = 0;
        long direct = -1;
        long old = -1;
        try {
            Answer a = get("/metrics");
            for (String line : a.text().split("\n")) {
                if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                    long v = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    heap += v;
                    if (line.contains("Old Gen") || line.contains("Tenured")) {
                        old = v;
                    }
                } else if (line.startsWith("jvm_buffer_memory_used_bytes{") && line.contains("id=\"direct\"")) {
                    direct = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1, -1};
        }
        return new long[] {heap, direct, old};
    }

    String memory(String label) {
        long[] jvm = jvmMemory();
        long rss = rssKib();
        return String.format("Server memory %s: RSS %s, heap used %s (old generation %s), direct buffers %s", label,
                rss < 0 ? "n/a (no --pid)" : String.format("%,d MiB", rss / 1024), mib(jvm[0]), mib(jvm[2]), mib(jvm[1]));
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format("%,.1f MiB", bytes / 1048576.0);
    }
}
