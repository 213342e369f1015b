package dev.cairn.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Attachments in multipart/mixed requests and responses, and signed statements, over real HTTP on each database. */
class AttachmentApiTest extends LrsOnEachDatabase {
    static final String BOUNDARY = "xyz-boundary-314159";
    static final String SIGNATURE = "http://adlnet.gov/expapi/attachments/signature";

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    static String attachment(String usageType, String contentType, byte[] content, String fileUrl) throws Exception {
        return "{\"usageType\":\"" + usageType + "\",\"display\":{\"en-US\":\"a file\"},\"contentType\":\"" + contentType
                + "\",\"length\":" + content.length + ",\"sha2\":\"" + sha256(content) + "\""
                + (fileUrl == null ? "" : ",\"fileUrl\":\"" + fileUrl + "\"") + "}";
    }

    static String statement(String id, String... attachments) {
        return "{\"id\":\"" + id + "\",\"actor\":{\"mbox\":\"mailto:ada@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/completed\"},\"object\":{\"id\":\"http://example.com/a\"}"
                + (attachments.length == 0 ? "" : ",\"attachments\":[" + String.join(",", attachments) + "]") + "}";
    }

    /** A part is {contentType, hash or null, content}. */
    static byte[] multipart(String json, Object[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Type: application/json\r\n\r\n" + json + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (Object[] p : parts) {
            out.writeBytes(("--" + BOUNDARY + "\r\nContent-Type: " + p[0] + "\r\nContent-Transfer-Encoding: binary\r\n"
                    + (p[1] == null ? "" : "X-Experience-API-Hash: " + p[1] + "\r\n") + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.writeBytes((byte[]) p[2]);
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    HttpResponse<String> post(byte[] body, String contentType) throws Exception {
        return lrs.send(lrs.request("/xapi/statements").header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    HttpResponse<String> postMultipart(byte[] body) throws Exception {
        return post(body, "multipart/mixed; boundary=" + BOUNDARY);
    }

    @Test
    void anAttachmentIsStoredAndReturnedOnceWithAttachmentsTrue() throws Exception {
        byte[] text = "here is a simple attachment".getBytes(StandardCharsets.UTF_8);
        String hash = sha256(text);
        String a = UUID.randomUUID().toString();
        String b = UUID.randomUUID().toString();
        String att = attachment("http://example.com/usage", "text/plain", text, null);
        HttpResponse<String> r = postMultipart(multipart("[" + statement(a, att) + "," + statement(b, att) + "]",
                new Object[] {"text/plain", hash, text}));
        assertEquals(200, r.statusCode(), r.body());

        HttpResponse<String> single = lrs.get("/xapi/statements?statementId=" + a + "&attachments=true");
        assertEquals(200, single.statusCode(), single.body());
        String type = single.headers().firstValue("Content-Type").orElseThrow();
        assertTrue(type.startsWith("multipart/mixed; boundary="), type);
        String boundary = type.substring("multipart/mixed; boundary=".length());
        String[] parts = single.body().split("--" + boundary);
        assertTrue(parts[1].contains("Content-Type: application/json") && parts[1].contains("\"id\":\"" + a + "\""));
        assertTrue(parts[2].contains("Content-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n"
                + "X-Experience-API-Hash: " + hash + "\r\n\r\nhere is a simple attachment\r\n"), parts[2]);
        assertEquals("--\r\n", parts[3]);

        HttpResponse<String> page = lrs.get("/xapi/statements?attachments=true");
        assertEquals(4, page.body().split(hash, -1).length, "the hash twice in the statements and once as a part");

        HttpResponse<String> plain = lrs.get("/xapi/statements?statementId=" + a + "&attachments=false");
        assertEquals("application/json", plain.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void partsThatDoNotMatchTheStatementsGet400AndStoreNothing() throws Exception {
        byte[] text = "content".getBytes(StandardCharsets.UTF_8);
        String id = UUID.randomUUID().toString();
        String att = attachment("http://example.com/usage", "text/plain", text, null);
        Object[][][] cases = {
                {{"text/plain", sha256("other".getBytes(StandardCharsets.UTF_8)), text}}, // hash names no attachment
                {{"text/plain", sha256(text), "changed".getBytes(StandardCharsets.UTF_8)}}, // content differs from hash
                {{"text/plain", null, text}}, // no hash header
                {}, // the part is missing
                {{"text/plain", sha256(text), text}, {"text/plain", sha256(new byte[] {1}), new byte[] {1}}}, // extra part
        };
        for (Object[][] parts : cases) {
            HttpResponse<String> r = postMultipart(multipart(statement(id, att), parts));
            assertEquals(400, r.statusCode(), r.body());
        }
        byte[] textFirst = multipart(statement(id, att), new Object[] {"text/plain", sha256(text), text});
        String notJsonFirst = new String(textFirst, StandardCharsets.UTF_8).replaceFirst("application/json", "text/plain");
        assertEquals(400, postMultipart(notJsonFirst.getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, post(textFirst, "multipart/form-data; boundary=" + BOUNDARY).statusCode());
        assertEquals(400, post(textFirst, "multipart/mixed").statusCode(), "no boundary");
        assertEquals(400, lrs.post(statement(id, att)).statusCode(), "raw content needs multipart");
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }

    @Test
    void aSubStatementsAttachmentIsMatchedAndReturnedToo() throws Exception {
        byte[] text = "inside a SubStatement".getBytes(StandardCharsets.UTF_8);
        String hash = sha256(text);
        String id = UUID.randomUUID().toString();
        // An upper-case sha2 names the same content.
        String att = attachment("http://example.com/usage", "text/plain", text, null).replace(hash, hash.toUpperCase());
        String sub = "{\"objectType\":\"SubStatement\",\"actor\":{\"mbox\":\"mailto:b@example.com\"},"
                + "\"verb\":{\"id\":\"http://adlnet.gov/expapi/verbs/attempted\"},\"object\":{\"id\":\"http://example.com/b\"},"
                + "\"attachments\":[" + att + "]}";
        String json = statement(id).replace("{\"id\":\"http://example.com/a\"}", sub);
        HttpResponse<String> r = postMultipart(multipart(json, new Object[] {"text/plain", hash.toUpperCase(), text}));
        assertEquals(200, r.statusCode(), r.body());
        HttpResponse<String> get = lrs.get("/xapi/statements?statementId=" + id + "&attachments=true");
        assertTrue(get.body().contains("X-Experience-API-Hash: " + hash + "\r\n\r\ninside a SubStatement\r\n"), get.body());
    }

    /** More attachments than one SQL statement may list (SQLite 32,766 parameters, PostgreSQL 65,535) on one page. */
    @Test
    void aPageNamingTensOfThousandsOfAttachmentsIsServed() throws Exception {
        java.util.Random random = new java.util.Random(3);
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (int s = 0; s < 4; s++) {
            StringBuilder atts = new StringBuilder();
            for (int i = 0; i < 18_000; i++) {
                byte[] hash = new byte[32];
                random.nextBytes(hash);
                atts.append(i == 0 ? "" : ",").append("{\"usageType\":\"http://e.x/u\",\"display\":{\"en\":\"a\"},"
                        + "\"contentType\":\"text/plain\",\"length\":1,\"sha2\":\"").append(HexFormat.of().formatHex(hash))
                        .append("\",\"fileUrl\":\"http://e.x/f\"}");
            }
            String id = UUID.randomUUID().toString();
            assertEquals(200, lrs.post(statement(id, atts.toString())).statusCode());
            ids.add(id);
        }
        HttpResponse<String> page = lrs.get("/xapi/statements?attachments=true");
        assertEquals(200, page.statusCode(), page.body().length() > 300 ? page.body().substring(0, 300) : page.body());
        for (String id : ids) {
            assertTrue(page.body().contains("\"id\":\"" + id + "\""), id);
        }
    }

    @Test
    void fileUrlAttachmentsNeedNoPart() throws Exception {
        byte[] text = "remote".getBytes(StandardCharsets.UTF_8);
        String att = attachment("http://example.com/usage", "text/plain", text, "http://example.com/file.txt");
        assertEquals(200, lrs.post(statement(UUID.randomUUID().toString(), att)).statusCode());
        assertEquals(200, postMultipart(multipart(statement(UUID.randomUUID().toString(), att))).statusCode());
    }

    /**
     * Contents are stored once by their SHA-2, but a statement returns only those its own request carried: one that
     * names a stored content by its hash with a fileUrl (which needs no part) does not fetch another request's bytes.
     */
    @Test
    void aStatementThatNamesAStoredContentWithOnlyAFileUrlIsReturnedWithoutIt() throws Exception {
        byte[] text = "sent with the first statement only".getBytes(StandardCharsets.UTF_8);
        String carrier = UUID.randomUUID().toString();
        assertEquals(200, postMultipart(multipart(statement(carrier, attachment("http://example.com/usage",
                "text/plain", text, null)), new Object[] {"text/plain", sha256(text), text})).statusCode());
        String namer = UUID.randomUUID().toString();
        assertEquals(200, lrs.post(statement(namer, attachment("http://example.com/usage", "text/plain", text,
                "http://example.com/file.txt"))).statusCode());

        HttpResponse<String> named = lrs.get("/xapi/statements?statementId=" + namer + "&attachments=true");
        assertEquals(200, named.statusCode(), named.body());
        assertFalse(named.body().contains("sent with the first statement only"), named.body());
        HttpResponse<String> carried = lrs.get("/xapi/statements?statementId=" + carrier + "&attachments=true");
        assertTrue(carried.body().contains("sent with the first statement only"), carried.body());
        HttpResponse<String> page = lrs.get("/xapi/statements?attachments=true");
        assertEquals(2, page.body().split("sent with the first statement only", -1).length, "one part, the carrier's");
    }

    @Test
    void anAttachmentLargerThanUndertowsDefaultCapIsStoredWithinTheLimit() throws Exception {
        byte[] content = new byte[3 << 20]; // more than Undertow's default cap of 2 MiB, less than TestLrs.MAX_BODY
        new java.util.Random(7).nextBytes(content);
        String id = UUID.randomUUID().toString();
        HttpResponse<String> r = postMultipart(multipart(statement(id,
                attachment("http://example.com/usage", "application/octet-stream", content, null)),
                new Object[] {"application/octet-stream", sha256(content), content}));
        assertEquals(200, r.statusCode(), r.body());
        HttpResponse<byte[]> get = lrs.http.send(lrs.request("/xapi/statements?statementId=" + id + "&attachments=true")
                .GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertTrue(get.body().length > content.length, "the content is returned whole");
    }

    @Test
    void aBodyOverTheLimitGets413WithOrWithoutContentLength() throws Exception {
        byte[] big = new byte[(int) TestLrs.MAX_BODY + 1];
        byte[] body = multipart(statement(UUID.randomUUID().toString(),
                attachment("http://example.com/usage", "application/octet-stream", big, null)),
                new Object[] {"application/octet-stream", sha256(big), big});
        HttpResponse<String> chunked = lrs.send(lrs.request("/xapi/statements")
                .header("Content-Type", "multipart/mixed; boundary=" + BOUNDARY)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))));
        assertEquals(413, chunked.statusCode(), chunked.body());
        HttpResponse<String> sized = postMultipart(body);
        assertEquals(413, sized.statusCode(), sized.body());
        assertTrue(sized.headers().firstValue("X-Experience-API-Consistent-Through").isPresent());
    }

    /** A key pair and self-signed certificate made by the JDK's keytool. */
    record Signer(PrivateKey key, Certificate certificate) {
        static Signer create(Path dir) throws Exception {
            Path store = dir.resolve("signer.p12");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "s", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=Cairn Test",
                    "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "secret123")
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), output);
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (var in = java.nio.file.Files.newInputStream(store)) {
                ks.load(in, "secret123".toCharArray());
            }
            return new Signer((PrivateKey) ks.getKey("s", "secret123".toCharArray()), ks.getCertificate("s"));
        }

        String sign(String alg, String javaAlg, String payload) throws Exception {
            Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
            String header = "{\"alg\":\"" + alg + "\",\"x5c\":[\"" + Base64.getEncoder().encodeToString(certificate.getEncoded()) + "\"]}";
            String input = url.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                    + url.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
            Signature s = Signature.getInstance(javaAlg);
            s.initSign(key);
            s.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + url.encodeToString(s.sign());
        }
    }

    HttpResponse<String> postSigned(String id, String signedPayload, String jws, String contentType) throws Exception {
        byte[] sig = jws.getBytes(StandardCharsets.US_ASCII);
        return postMultipart(multipart(statement(id, attachment(SIGNATURE, contentType, sig, null)),
                new Object[] {contentType, sha256(sig), sig}));
    }

    @Test
    void signedStatementsAreVerified() throws Exception {
        Signer signer = Signer.create(data);
        String[][] algorithms = {{"RS256", "SHA256withRSA"}, {"RS384", "SHA384withRSA"}, {"RS512", "SHA512withRSA"}};
        for (String[] alg : algorithms) {
            String id = UUID.randomUUID().toString();
            String jws = signer.sign(alg[0], alg[1], statement(id));
            HttpResponse<String> r = postSigned(id, statement(id), jws, "application/octet-stream");
            assertEquals(200, r.statusCode(), alg[0] + ": " + r.body());
        }

        String id = UUID.randomUUID().toString();
        String otherPayload = signer.sign("RS256", "SHA256withRSA", statement(UUID.randomUUID().toString()));
        assertEquals(400, postSigned(id, statement(id), otherPayload, "application/octet-stream").statusCode(),
                "the payload is another statement");
        String good = signer.sign("RS256", "SHA256withRSA", statement(id));
        char last = good.charAt(good.length() - 2);
        String tampered = good.substring(0, good.length() - 2) + (last == 'A' ? 'B' : 'A') + good.charAt(good.length() - 1);
        HttpResponse<String> bad = postSigned(id, statement(id), tampered, "application/octet-stream");
        assertEquals(400, bad.statusCode(), "the signature does not verify");
        assertTrue(bad.body().contains("signature.invalid"), bad.body());
        assertEquals(400, postSigned(id, statement(id), good, "text/plain").statusCode(), "a signature is octet-stream");
        String hs256 = good.replaceFirst("^[^.]+", Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(400, postSigned(id, statement(id), hs256, "application/octet-stream").statusCode(), "HS256");
        assertEquals(400, postSigned(id, statement(id), "not a jws", "application/octet-stream").statusCode());
        assertEquals(404, lrs.get("/xapi/statements?statementId=" + id).statusCode());
    }
}
