package dev.cairn.forward;

import dev.cairn.http.Responses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One POST of a batch to a target, and what its answer means for forwarding:
 * <ul>
 *   <li>{@code lrs}: the statements as a JSON array to {@code url/statements}, with Basic authentication, the
 *       version header and {@code X-Cairn-Ack: durable} (a Cairn target answers once they are in its log). 2xx is
 *       delivered; so is 409, which an LRS answers when it holds one of the ids with other content (forwarded
 *       statements keep their ids, so a batch sent again is answered 200: xAPI's equivalence rule makes
 *       at-least-once safe).</li>
 *   <li>{@code webhook}: {@code {"target": NAME, "statements": [...]}} to {@code url}; with a secret, the header
 *       {@value #SIGNATURE} is {@code sha256=} and the lowercase hex HMAC-SHA256 of the body under it. 2xx is
 *       delivered.</li>
 * </ul>
 * Network errors, 5xx and 429 are retried (429 and 503 after their Retry-After); any other 4xx refuses the batch,
 * which is then parked as a dead letter with the answer.
 */
final class Delivery {
    static final String SIGNATURE = "X-Cairn-Signature";
    /** The most of a refusal's body kept with its dead letter, in bytes. */
    static final int RESPONSE_CHARS = 2_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What one POST got. */
    record Outcome(Kind kind, int status, String response, long retryAfterMillis) {
        enum Kind { DELIVERED, RETRY, REFUSED }
    }

    private final HttpClient client;
    private final String version;

    /** @param version the X-Experience-API-Version sent to LRS targets */
    Delivery(HttpClient client, String version) {
        this.client = client;
        this.version = version;
    }

    /** The body a batch is POSTed as: the statements' exact JSON, in log order. */
    static byte[] body(Target target, List<byte[]> statements) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + statements.stream().mapToInt(s -> s.length + 1).sum());
        try {
            if (target.stored().kind().equals(Target.WEBHOOK)) {
                StringBuilder start = new StringBuilder("{\"target\":");
                Responses.quote(start, target.name());
                out.write(start.append(",\"statements\":").toString().getBytes(StandardCharsets.UTF_8));
            }
            out.write('[');
            for (int i = 0; i < statements.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(statements.get(i));
            }
            out.write(']');
            if (target.stored().kind().equals(Target.WEBHOOK)) {
                out.write('}');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** POSTs {@code body} to {@code target}; never throws for what the network or the target does. */
    Outcome post(Target target, byte[] body) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder().timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (target.stored().kind().equals(Target.LRS)) {
            // Delivered means stored durably: a Cairn target then answers without waiting for its projector (other
            // LRSs ignore the header).
            request.uri(statementsUri(target.url()))
                    .header("X-Experience-API-Version", version)
                    .header("X-Cairn-Ack", "durable")
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            target.stored().credential().getBytes(StandardCharsets.UTF_8)));
        } else {
            request.uri(target.url());
            if (target.stored().secret() != null) {
                request.header(SIGNATURE, "sha256=" + hmac(target.stored().secret(), body));
            }
        }
        HttpResponse<InputStream> response;
        String text;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            // A target's answer is read up to what a dead letter keeps, whatever it sends: it cannot fill our memory.
            try (InputStream in = response.body()) {
                byte[] head = in.readNBytes(RESPONSE_CHARS);
                text = new String(head, StandardCharsets.UTF_8) + (in.read() >= 0 ? "…" : "");
            }
        } catch (IOException e) {
            return new Outcome(Outcome.Kind.RETRY, 0, "no answer: " + e, 0);
        }
        int status = response.statusCode();
        if (status / 100 == 2 || (status == 409 && target.stored().kind().equals(Target.LRS))) {
            return new Outcome(Outcome.Kind.DELIVERED, status, text, 0);
        }
        if (status == 429 || status / 100 == 5) {
            return new Outcome(Outcome.Kind.RETRY, status, text,
                    retryAfterMillis(response.headers().firstValue("Retry-After").orElse(null)));
        }
        return new Outcome(Outcome.Kind.REFUSED, status, text, 0);
    }

    private static URI statementsUri(URI endpoint) {
        String s = endpoint.toString();
        return URI.create(s.endsWith("/") ? s + "statements" : s + "/statements");
    }

    /** HMAC-SHA256 of {@code body} under {@code secret}, in lowercase hex. */
    static String hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    /** Retry-After in seconds or as an HTTP date, in milliseconds from now (0 when absent or unreadable). */
    static long retryAfterMillis(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        String v = value.strip();
        try {
            return Math.max(0, Math.multiplyExact(Long.parseLong(v), 1000L));
        } catch (NumberFormatException | ArithmeticException e) {
            try {
                return Math.max(0, ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()
                        .toEpochMilli() - System.currentTimeMillis());
            } catch (RuntimeException notADate) {
                return 0;
            }
        }
    }
}
