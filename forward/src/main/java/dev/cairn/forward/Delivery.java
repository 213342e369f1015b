package dev.cairn.forward;

import dev.cairn.http.Responses;
import dev.cairn.log.AttachmentContent;
import dev.cairn.xapi.MediaTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One POST of a batch to a target, and what its answer means for forwarding:
 * <ul>
 *   <li>{@code lrs}: the statements as a JSON array to {@code url/statements} (multipart/mixed with the contents of
 *       attachments that were sent with them), with Basic authentication, the
 *       version header and {@code X-Cairn-Ack: durable} (a Cairn target answers once they are in its log). 2xx is
 *       delivered: forwarded statements keep their ids, so a batch sent again is answered 200 (xAPI's equivalence
 *       rule makes at-least-once safe). 409 means the target holds one of the ids with other content and refused
 *       the whole batch (xAPI batches are all or nothing): the batch is parked, not lost.</li>
 *   <li>{@code webhook}: {@code {"target": NAME, "statements": [...]}} to {@code url}; with a secret, the header
 *       {@value #SIGNATURE} is {@code sha256=} and the lowercase hex HMAC-SHA256 of the body under it. 2xx is
 *       delivered.</li>
 * </ul>
 * No answer within 30 s (headers and body), 5xx, 429, 3xx (redirects are not followed), 401, 403 and 408 are
 * retried (after a Retry-After where one is given): the target takes nothing now, so parking every batch would only
 * bury it. Any other 4xx refuses the batch, which is then parked as a dead letter with the answer.
 */
final class Delivery {
    static final String SIGNATURE = "X-Cairn-Signature";
    /** When a webhook POST was signed, in seconds since 1970; signed with the body, so a receiver can refuse replays. */
    static final String TIMESTAMP = "X-Cairn-Timestamp";
    /** The most of a refusal's body kept with its dead letter, in bytes. */
    static final int RESPONSE_CHARS = 2_000;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What one POST got. */
    record Outcome(Kind kind, int status, String response, long retryAfterMillis) {
        enum Kind { DELIVERED, RETRY, REFUSED }
    }

    private final HttpClient client;

    /**
     * One client for every target and retry of this process: connections are set up within 5 s, and redirects are not
     * followed (a target that moved is retried until its URL is changed, never sent to a place nobody named).
     */
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    Delivery() {
        this.client = CLIENT;
    }

    /** One statement to forward: its exact JSON, and the contents of its attachments that were sent with it. */
    record Forwarded(byte[] json, List<AttachmentContent> contents) {
        /** Its bytes in a POST whose contents so far are {@code counted} (by hash), to which it adds its own. */
        long bytesWith(Set<String> counted) {
            long n = json.length;
            for (AttachmentContent c : contents) {
                if (counted.add(c.sha2())) {
                    n += c.content().length;
                }
            }
            return n;
        }
    }

    /** A POST's body and its Content-Type. */
    record Payload(byte[] bytes, String contentType) {
    }

    /**
     * The body a batch is POSTed as: the statements' exact JSON, in log order. To an LRS, statements whose
     * attachments' contents were sent with them go with those contents, as they came (Comm 1.5.2: multipart/mixed,
     * the statements first, then each content once, named by its hash), so the target can store them; a webhook gets
     * the JSON only.
     */
    static Payload body(Target target, List<Forwarded> statements) {
        boolean webhook = target.stored().kind().equals(Target.WEBHOOK);
        Map<String, AttachmentContent> contents = new LinkedHashMap<>();
        long size = 64;
        for (Forwarded f : statements) {
            size += f.json().length + 1;
            if (!webhook) {
                for (AttachmentContent c : f.contents()) {
                    if (contents.putIfAbsent(c.sha2(), c) == null) {
                        size += c.content().length + 200;
                    }
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(size, Integer.MAX_VALUE - 8));
        // A random boundary: content that holds it by chance is as likely as a collision of 122 random bits.
        String boundary = contents.isEmpty() ? null : "cairn-" + UUID.randomUUID();
        try {
            if (boundary != null) {
                out.write(("--" + boundary + "\r\nContent-Type: application/json\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
            }
            if (webhook) {
                StringBuilder start = new StringBuilder("{\"target\":");
                Responses.quote(start, target.name());
                out.write(start.append(",\"statements\":").toString().getBytes(StandardCharsets.UTF_8));
            }
            out.write('[');
            for (int i = 0; i < statements.size(); i++) {
                if (i > 0) {
                    out.write(',');
                }
                out.write(statements.get(i).json());
            }
            out.write(']');
            if (webhook) {
                out.write('}');
            }
            if (boundary == null) {
                return new Payload(out.toByteArray(), "application/json");
            }
            for (AttachmentContent c : contents.values()) {
                out.write(("\r\n--" + boundary + "\r\nContent-Type: " + partType(c.contentType())
                        + "\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: " + c.sha2() + "\r\n\r\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.write(c.content());
            }
            out.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Payload(out.toByteArray(), "multipart/mixed; boundary=" + boundary);
    }

    /**
     * An attachment part's Content-Type as it goes out: what the client sent with the content when it is a valid
     * media type, else application/octet-stream, so that nothing a client wrote can add a header to the part.
     */
    private static String partType(String contentType) {
        return contentType != null && MediaTypes.isValid(contentType) ? contentType : "application/octet-stream";
    }

    /** POSTs {@code payload} to {@code target}; never throws for what the network or the target does. */
    Outcome post(Target target, Payload payload) throws InterruptedException {
        byte[] body = payload.bytes();
        HttpRequest.Builder request = HttpRequest.newBuilder().timeout(TIMEOUT)
                .header("Content-Type", payload.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (target.stored().kind().equals(Target.LRS)) {
            // Delivered means stored durably: a Cairn target then answers without waiting for its projector (other
            // LRSs ignore the header).
            request.uri(statementsUri(target.url()))
                    .header("X-Experience-API-Version", target.version().header())
                    .header("X-Cairn-Ack", "durable")
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            target.stored().credential().getBytes(StandardCharsets.UTF_8)));
        } else {
            request.uri(target.url());
            if (target.stored().secret() != null) {
                long timestamp = System.currentTimeMillis() / 1000;
                request.header(TIMESTAMP, Long.toString(timestamp))
                        .header(SIGNATURE, "sha256=" + signature(target.stored().secret(), timestamp, body));
            }
        }
        HttpResponse<byte[]> response;
        // One deadline for the answer whole, headers and body: a target that answers its headers and then trickles
        // its body cannot hold the forwarder. The body is kept up to what a dead letter holds.
        java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request.build(),
                info -> new FirstBytes(RESPONSE_CHARS));
        try {
            response = answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            return new Outcome(Outcome.Kind.RETRY, 0, "no answer: " + e.getCause(), 0);
        } catch (TimeoutException e) {
            answer.cancel(true);
            return new Outcome(Outcome.Kind.RETRY, 0, "no whole answer within " + TIMEOUT.toSeconds() + " s", 0);
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        }
        int status = response.statusCode();
        // PostgreSQL cannot hold U+0000 in text: a target's answer is kept without it
        String text = new String(response.body(), StandardCharsets.UTF_8).replace('\0', ' ');
        if (status / 100 == 2) {
            return new Outcome(Outcome.Kind.DELIVERED, status, text, 0);
        }
        if (status == 429 || status / 100 == 5 || status / 100 == 3 || status == 401 || status == 403 || status == 408) {
            // the target is not taking anything now (down, throttling, moved, or our credential is refused): every
            // batch would get the same, so wait and try again rather than park them all
            return new Outcome(Outcome.Kind.RETRY, status, text,
                    retryAfterMillis(response.headers().firstValue("Retry-After").orElse(null)));
        }
        return new Outcome(Outcome.Kind.REFUSED, status, text, 0);
    }

    /**
     * Takes the first {@code limit} bytes of a body, and marks with "…" that there was more; cancels the rest.
     */
    private static final class FirstBytes implements HttpResponse.BodySubscriber<byte[]> {
        private final int limit;
        private final java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        private final java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
        private java.util.concurrent.Flow.Subscription subscription;
        private boolean more;

        FirstBytes(int limit) {
            this.limit = limit;
        }

        @Override
        public java.util.concurrent.CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> buffers) {
            for (java.nio.ByteBuffer b : buffers) {
                byte[] chunk = new byte[Math.min(b.remaining(), limit - kept.size())];
                b.get(chunk);
                kept.write(chunk, 0, chunk.length);
                more |= b.hasRemaining();
            }
            if (more) {
                subscription.cancel();
                finish();
            } else {
                subscription.request(1);
            }
        }

        @Override
        public void onError(Throwable t) {
            if (!result.isDone()) {
                result.completeExceptionally(t);
            }
        }

        @Override
        public void onComplete() {
            finish();
        }

        private void finish() {
            if (!result.isDone()) {
                byte[] k = kept.toByteArray();
                if (more) {
                    byte[] ellipsis = "…".getBytes(StandardCharsets.UTF_8);
                    byte[] both = java.util.Arrays.copyOf(k, k.length + ellipsis.length);
                    System.arraycopy(ellipsis, 0, both, k.length, ellipsis.length);
                    k = both;
                }
                result.complete(k);
            }
        }
    }

    private static URI statementsUri(URI endpoint) {
        String s = endpoint.toString();
        return URI.create(s.endsWith("/") ? s + "statements" : s + "/statements");
    }

    /**
     * A webhook's signature: HMAC-SHA256 under {@code secret} of the timestamp in decimal, a '.', and the body, in
     * lowercase hex. With the timestamp signed, a receiver that refuses old timestamps refuses a replayed POST.
     */
    static String signature(String secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
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
