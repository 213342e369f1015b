package dev.cairn.forward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.log.AttachmentContent;
import dev.cairn.store.ForwardTarget;
import dev.cairn.xapi.XapiVersion;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bodies a batch is POSTed as. */
class DeliveryTest {
    private static final AttachmentContent ESSAY = new AttachmentContent("a1b2", "text/plain",
            "an essay".getBytes(StandardCharsets.UTF_8));

    private static Target target(String kind) {
        return Target.check(new ForwardTarget("t", kind, "http://127.0.0.1:9/x", kind.equals(Target.LRS) ? "k:s" : null,
                null, "", 10, 10, null, false, -1L), XapiVersion.V2_0_0);
    }

    private static Delivery.Forwarded statement(String id, AttachmentContent... contents) {
        return new Delivery.Forwarded(("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8), List.of(contents));
    }

    @Test
    void statementsWithoutCarriedContentsGoAsAJsonArray() {
        Delivery.Payload p = Delivery.body(target(Target.LRS), List.of(statement("a"), statement("b")));
        assertEquals("application/json", p.contentType());
        assertEquals("[{\"id\":\"a\"},{\"id\":\"b\"}]", new String(p.bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void toAnLrsCarriedContentsGoAsMultipartEachOnceAfterTheStatements() {
        Delivery.Payload p = Delivery.body(target(Target.LRS), List.of(statement("a", ESSAY), statement("b", ESSAY)));
        assertTrue(p.contentType().startsWith("multipart/mixed; boundary="), p.contentType());
        String boundary = p.contentType().substring("multipart/mixed; boundary=".length());
        assertEquals("--" + boundary + "\r\nContent-Type: application/json\r\n\r\n[{\"id\":\"a\"},{\"id\":\"b\"}]\r\n--"
                + boundary + "\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: binary\r\n"
                + "X-Experience-API-Hash: a1b2\r\n\r\nan essay\r\n--" + boundary + "--\r\n",
                new String(p.bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aWebhookGetsTheStatementsJsonOnly() {
        Delivery.Payload p = Delivery.body(target(Target.WEBHOOK), List.of(statement("a", ESSAY)));
        assertEquals("application/json", p.contentType());
        assertEquals("{\"target\":\"t\",\"statements\":[{\"id\":\"a\"}]}", new String(p.bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void aContentNamedByManyStatementsCountsOncePerPost() {
        java.util.Set<String> counted = new java.util.HashSet<>();
        Delivery.Forwarded a = statement("a", ESSAY);
        Delivery.Forwarded b = statement("b", ESSAY);
        assertEquals(a.json().length + ESSAY.content().length, a.bytesWith(counted));
        assertEquals(b.json().length, b.bytesWith(counted), "the essay is in this POST already");
    }

    @Test
    void aPartsContentTypeThatIsNotAMediaTypeGoesAsOctetStream() {
        AttachmentContent odd = new AttachmentContent("cd34", "text/plain\nX-Experience-API-Hash: 00", new byte[] {1});
        String body = new String(Delivery.body(target(Target.LRS), List.of(statement("a", odd))).bytes(),
                StandardCharsets.ISO_8859_1);
        assertTrue(body.contains("Content-Type: application/octet-stream\r\n"), body);
        assertTrue(!body.contains("X-Experience-API-Hash: 00"), body);
    }
}
