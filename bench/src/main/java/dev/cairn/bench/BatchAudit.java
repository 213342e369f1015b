package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.bench.BatchLoad.Batch;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks what a server holds of the batches a {@link BatchLoad} sent: every acknowledged batch whole, exactly once,
 * and every other batch whole or not at all, where a statement with an attachment is whole when its attachment is
 * returned byte-identical. Counts add up over several audits (one per trial).
 */
final class BatchAudit {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(BatchLoad.TIMEOUT).build();
    private final String authorization;
    private int sent;
    private int acknowledged;
    private int lost;
    private int partial;
    private int attachmentsSent;
    private int cutMidUpload;
    private int attachmentsReadBack;
    private int attachmentsDiffering;
    private String firstDifference;

    BatchAudit(String authorization) {
        this.authorization = authorization;
    }

    /** Waits until the server at {@code base} has projected the whole log, then reads back every batch. */
    void audit(String base, Collection<Batch> batches) throws IOException, InterruptedException {
        awaitProjected(base);
        for (Batch b : batches) {
            sent++;
            int stored = storedOf(base, b);
            boolean whole = stored == b.ids().size();
            if (b.attachment() != null) {
                attachmentsSent++;
                cutMidUpload += b.acknowledged() || b.attachment().uploaded() ? 0 : 1;
                if (whole) {
                    attachmentsReadBack++;
                    String difference = attachmentDifference(base, b.ids().get(0), b.attachment());
                    if (difference != null) {
                        attachmentsDiffering++;
                        firstDifference = firstDifference == null ? difference : firstDifference;
                        whole = false;
                    }
                }
            }
            if (b.acknowledged()) {
                acknowledged++;
                lost += whole ? 0 : 1;
            } else if (stored != 0 && !whole) {
                partial++;
            }
        }
    }

    /**
     * The row: none lost, none partial, and something was acknowledged at all (a load that wrote nothing proves
     * nothing); with attachments, at least one was read back.
     */
    InvariantRow row(String dialect, String check) {
        String expected = "0 acknowledged batches lost or not whole, 0 batches partly stored";
        String observed = acknowledged + " acknowledged of " + sent + " sent: " + lost + " lost or not whole, " + partial
                + " partly stored";
        if (attachmentsSent > 0) {
            expected += "; every stored attachment returned byte-identical";
            observed += "; " + attachmentsSent + " with an attachment (" + cutMidUpload + " cut off mid-upload), "
                    + attachmentsReadBack + " read back: " + attachmentsDiffering + " not byte-identical"
                    + (firstDifference == null ? "" : " (" + firstDifference + ")");
        }
        return new InvariantRow(dialect, check, expected, observed, lost == 0 && partial == 0 && acknowledged > 0
                && (attachmentsSent == 0 || attachmentsReadBack > 0));
    }

    /**
     * How the statement {@code id} read back with {@code attachments=true} differs from what was sent: the statement,
     * then one part whose content has the length and SHA-256 sent and whose hash header names it; null when it does not.
     */
    private String attachmentDifference(String base, String id, BatchLoad.Attachment sent) throws IOException,
            InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "/statements?statementId=" + id
                        + "&attachments=true")).timeout(BatchLoad.TIMEOUT).header("Authorization", authorization)
                .header("X-Experience-API-Version", "2.0.0").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            return id + ": GET answered " + r.statusCode();
        }
        List<MultipartParts.Part> parts;
        try {
            parts = MultipartParts.split(r.headers().firstValue("Content-Type").orElse(""), r.body());
        } catch (IllegalArgumentException e) {
            return id + ": " + e.getMessage();
        }
        if (parts.size() != 2 || !new String(parts.get(0).content(), StandardCharsets.UTF_8).contains(id)) {
            return id + ": " + parts.size() + " parts, not the statement and its attachment";
        }
        MultipartParts.Part part = parts.get(1);
        String sha2 = HexFormat.of().formatHex(FuzzCases.sha256(part.content()));
        if (part.content().length != sent.length() || !sha2.equals(sent.sha2())
                || !sent.sha2().equalsIgnoreCase(part.headers().getOrDefault("x-experience-api-hash", ""))) {
            return id + ": an attachment of " + part.content().length + " bytes, SHA-256 " + sha2 + ", hash header "
                    + part.headers().get("x-experience-api-hash") + "; sent " + sent.length() + " bytes, " + sent.sha2();
        }
        return null;
    }

    /** How many of the batch's statements the server returns, each counted once by id. */
    private int storedOf(String base, Batch b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/statements?limit=1000&registration="
                + b.registration())).timeout(BatchLoad.TIMEOUT).header("Authorization", authorization)
                .header("X-Experience-API-Version", "2.0.0").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET by registration: " + r.statusCode() + " " + r.body());
        }
        int found = 0;
        for (JsonNode s : JSON.readTree(r.body()).path("statements")) {
            found += b.ids().contains(s.path("id").asText()) ? 1 : 0;
        }
        return found;
    }

    /** Waits until the server has applied the whole log ({@code /health/ready} reports no lag). */
    void awaitProjected(String base) throws IOException, InterruptedException {
        URI ready = URI.create(base.substring(0, base.length() - "/xapi".length()) + "/health/ready");
        long deadline = System.nanoTime() + BatchLoad.TIMEOUT.toNanos() * 4;
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(ready).timeout(BatchLoad.TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && JSON.readTree(r.body()).path("projectorLagEvents").asLong(-1) == 0) {
                return;
            }
            last = r.statusCode() + " " + r.body();
            Thread.sleep(100);
        }
        throw new IllegalStateException("the server did not project the log within 120 s; /health/ready said " + last);
    }
}
