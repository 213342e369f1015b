package dev.cairn.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One request of the fuzzer as the bytes it sends, with what the fuzzer knows about it: the resource and mutation it
 * stands for, what the spec allows as an answer, and what it would store if accepted (so that the data check can
 * account for every statement and document).
 */
final class FuzzRequest {
    /** What the answer may be. */
    enum Expect {
        /** A valid request: anything but 2xx (or 429, the server's rate limit) is a failure. */
        ACCEPT,
        /** The spec says it must be refused: a 2xx is a failure. */
        REFUSE,
        /** Either way, as long as a refusal is a well-formed 4xx. */
        ANY
    }

    /** A request body, written as it is sent; large ones are generated as they are written, never held whole. */
    interface Body {
        long length();

        void writeTo(OutputStream out) throws IOException;

        Body EMPTY = bytes(new byte[0]);

        static Body bytes(byte[] b) {
            return new Body() {
                @Override
                public long length() {
                    return b.length;
                }

                @Override
                public void writeTo(OutputStream out) throws IOException {
                    out.write(b);
                }
            };
        }

        /** {@code prefix}, then {@code fill} repeated {@code count} times, then {@code suffix}. */
        static Body filled(byte[] prefix, byte fill, long count, byte[] suffix) {
            return new Body() {
                @Override
                public long length() {
                    return prefix.length + count + suffix.length;
                }

                @Override
                public void writeTo(OutputStream out) throws IOException {
                    out.write(prefix);
                    byte[] block = new byte[1 << 16];
                    java.util.Arrays.fill(block, fill);
                    for (long left = count; left > 0; left -= block.length) {
                        out.write(block, 0, (int) Math.min(block.length, left));
                    }
                    out.write(suffix);
                }
            };
        }
    }

    /** A document the request writes: its address (the resource path and query) and what the write does. */
    record DocWrite(String address, Effect effect, String sha1) {
        /** UNKNOWN: the request may have written it, in a way the fuzzer cannot model (its target was mutated). */
        enum Effect { PUT, MERGE, DELETE, UNKNOWN }
    }

    final String resource;
    final String kind;
    final byte[] head;
    final Body body;
    final boolean headMethod;
    final Expect expect;
    /** Statement ids this request would store if accepted (all generated fresh), and whether the answer lists them. */
    final List<UUID> statementIds;
    final boolean statementPost;
    /** The documents it writes (empty for reads). */
    final List<DocWrite> docs;

    FuzzRequest(String resource, String kind, byte[] head, Body body, boolean headMethod, Expect expect,
                List<UUID> statementIds, boolean statementPost, List<DocWrite> docs) {
        this.resource = resource;
        this.kind = kind;
        this.head = head;
        this.body = body;
        this.headMethod = headMethod;
        this.expect = expect;
        this.statementIds = statementIds;
        this.statementPost = statementPost;
        this.docs = docs;
    }

    /**
     * A request under construction: the parts a mutation changes one at a time. {@link #build} joins them into the
     * bytes; a mutation of the framing itself edits those bytes afterwards.
     */
    static final class Builder {
        String resource;
        String method = "GET";
        /** The path, and the query as raw (already percent-encoded) {@code name=value} pieces. */
        String path;
        final List<String> query = new ArrayList<>();
        String host;
        /** The Authorization header's value, or null for none. */
        String authorization;
        /** X-Experience-API-Version, or null for none. */
        String version = "2.0.0";
        String contentType;
        final List<String> headers = new ArrayList<>();
        Body body = Body.EMPTY;
        /** Framing of the body: "length" (Content-Length), "chunked", or "none" (no framing header at all). */
        String framing = "length";
        Expect expect = Expect.ACCEPT;
        final List<UUID> statementIds = new ArrayList<>();
        boolean statementPost;
        /** The document this request writes (its resource path and canonical query), or null. */
        String docAddress;
        DocWrite.Effect docEffect;
        /** False when the body wraps the document (the Alternate Request Syntax's form): then only its existence is known. */
        boolean bodyIsDocument = true;
        /** Set by a mutation that makes it unclear which document an accepted request wrote. */
        boolean docAddressChanged;

        Builder(String resource, String host, String authorization) {
            this.resource = resource;
            this.host = host;
            this.authorization = authorization;
        }

        Builder method(String m) {
            method = m;
            return this;
        }

        Builder path(String p) {
            path = p;
            return this;
        }

        /** Adds a query parameter, percent-encoding its value. */
        Builder param(String name, String value) {
            query.add(name + "=" + java.net.URLEncoder.encode(value, StandardCharsets.UTF_8));
            return this;
        }

        /** Replaces every value of a parameter with a raw (not re-encoded) one. */
        void setRaw(String name, String rawValue) {
            query.removeIf(q -> q.startsWith(name + "="));
            query.add(name + "=" + rawValue);
        }

        boolean hasParam(String name) {
            return query.stream().anyMatch(q -> q.startsWith(name + "="));
        }

        String target() {
            return query.isEmpty() ? path : path + "?" + String.join("&", query);
        }

        Builder json(String s) {
            return body("application/json", s.getBytes(StandardCharsets.UTF_8));
        }

        Builder body(String type, byte[] b) {
            contentType = type;
            body = Body.bytes(b);
            return this;
        }

        Builder header(String line) {
            headers.add(line);
            return this;
        }

        /** The body as bytes when it is small enough to mutate (generated bodies are not). */
        byte[] bodyBytes() {
            if (body.length() > (1 << 22)) {
                return null;
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) body.length());
            try {
                body.writeTo(out);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return out.toByteArray();
        }

        FuzzRequest build(String kind) {
            StringBuilder h = new StringBuilder(256);
            h.append(method).append(' ').append(target()).append(" HTTP/1.1\r\n");
            if (host != null) {
                h.append("Host: ").append(host).append("\r\n");
            }
            if (authorization != null) {
                h.append("Authorization: ").append(authorization).append("\r\n");
            }
            if (version != null) {
                h.append("X-Experience-API-Version: ").append(version).append("\r\n");
            }
            if (contentType != null) {
                h.append("Content-Type: ").append(contentType).append("\r\n");
            }
            for (String line : headers) {
                h.append(line).append("\r\n");
            }
            Body sent = body;
            boolean hasBody = body.length() > 0 || !(method.equals("GET") || method.equals("HEAD") || method.equals("DELETE"));
            if (framing.equals("length") && hasBody) {
                h.append("Content-Length: ").append(body.length()).append("\r\n");
            } else if (framing.equals("chunked")) {
                h.append("Transfer-Encoding: chunked\r\n");
                sent = chunked(bodyBytes());
            }
            h.append("\r\n");
            List<DocWrite> docs = docAddress == null ? List.of()
                    : docAddressChanged ? List.of(new DocWrite(docAddress, DocWrite.Effect.UNKNOWN, null))
                    : List.of(new DocWrite(docAddress, docEffect, docEffect == DocWrite.Effect.PUT && bodyIsDocument ? sha1(bodyBytes()) : null));
            // Undertow frames the answer to a method named "head" in any case as HEAD's (headers, no body), even when
            // the answer is a 405 for the method it is not.
            return new FuzzRequest(resource, kind, h.toString().getBytes(StandardCharsets.ISO_8859_1), sent,
                    method.equalsIgnoreCase("HEAD"), expect, List.copyOf(statementIds), statementPost, docs);
        }

        private static String sha1(byte[] b) {
            if (b == null) {
                return null;
            }
            try {
                return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(b));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        static Body chunked(byte[] b) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(b.length + 64);
            for (int i = 0; i < b.length; i += 4096) {
                int n = Math.min(4096, b.length - i);
                out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(b, i, n);
                out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return Body.bytes(out.toByteArray());
        }
    }

    /** The same request with other head bytes and body, for mutations of the framing. */
    FuzzRequest withBytes(byte[] newHead, Body newBody, Expect newExpect) {
        return new FuzzRequest(resource, kind, newHead, newBody, headMethod, newExpect, statementIds, statementPost,
                docs);
    }
}
