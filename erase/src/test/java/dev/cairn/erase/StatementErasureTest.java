package dev.cairn.erase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.xapi.Ifi;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What erasing Ada does to one statement: removed when hers, rewritten when it names her, kept otherwise. */
class StatementErasureTest {
    private static final String ADA = "ada.lovelace@example.com";
    private static final StatementErasure ERASURE = new StatementErasure(
            List.of(new Ifi(Ifi.Kind.MBOX, "mailto:" + ADA, null)), "e1");

    private static String agent(String mbox, String name) {
        return "{\"objectType\":\"Agent\",\"name\":\"" + name + "\",\"mbox\":\"mailto:" + mbox + "\"}";
    }

    private static StatementErasure.Decision decide(String actor, String verb, String object, String more) {
        return ERASURE.decide(("{\"id\":\"6fbd3d8e-6b0a-4f5e-9f7e-2f3f4a5b6c7d\",\"actor\":" + actor
                + ",\"verb\":{\"id\":\"" + verb + "\"},\"object\":" + object + more
                + ",\"stored\":\"2026-12-02T10:00:00.000Z\",\"authority\":" + agent("admin@example.com", "Admin")
                + ",\"version\":\"2.0.0\"}").getBytes(StandardCharsets.UTF_8));
    }

    private static final String COMPLETED = "http://adlnet.gov/expapi/verbs/completed";
    private static final String ACTIVITY = "{\"id\":\"http://example.com/a\"}";

    @Test
    void herOwnStatementIsRemoved() {
        assertEquals(StatementErasure.Action.REMOVE, decide(agent(ADA, "Ada"), COMPLETED, ACTIVITY, "").action());
    }

    @Test
    void aStatementAboutHerIsRewrittenWithThePlaceholder() {
        StatementErasure.Decision d = decide(agent("bob@example.com", "Bob"), COMPLETED, agent(ADA, "Ada Lovelace"), "");
        assertEquals(StatementErasure.Action.REWRITE, d.action());
        String json = new String(d.json(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"object\":{\"objectType\":\"Agent\",\"openid\":\"urn:cairn:erased:e1\"}"), json);
        assertFalse(json.contains(ADA) || json.contains("Lovelace"), json);
    }

    @Test
    void herAddressInFreeTextIsScrubbedButNotInsideAnotherAddress() {
        StatementErasure.Decision d = decide(agent("bob@example.com", "Bob"), COMPLETED, ACTIVITY,
                ",\"context\":{\"instructor\":" + agent(ADA, "Ada") + "},\"result\":{\"response\":\"asked " + ADA
                        + ". and x" + ADA + "\"}");
        assertEquals(StatementErasure.Action.REWRITE, d.action());
        String json = new String(d.json(), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"response\":\"asked erased. and x" + ADA + "\""), json);
    }

    @Test
    void aStatementThatNamesSomeoneElseIsKept() {
        assertEquals(StatementErasure.Action.KEEP, decide(agent("bob@example.com", "Bob"), COMPLETED, ACTIVITY, "")
                .action());
        assertEquals(StatementErasure.Action.KEEP, decide(agent("x" + ADA, "Bob"), COMPLETED, ACTIVITY, "").action(),
                "an address that only contains hers is someone else's");
    }

    @Test
    void herVoidingStatementIsRewrittenSoItsTargetStaysVoided() {
        StatementErasure.Decision d = decide(agent(ADA, "Ada"), "http://adlnet.gov/expapi/verbs/voided",
                "{\"objectType\":\"StatementRef\",\"id\":\"0c0d6a4e-6b0a-4f5e-9f7e-2f3f4a5b6c7d\"}", "");
        assertEquals(StatementErasure.Action.REWRITE, d.action());
    }

    @Test
    void anEscapedAddressIsFoundToo() {
        String escaped = "{\"objectType\":\"Agent\",\"mbox\":\"mailto:ada.lovelace\\u0040example.com\"}";
        assertEquals(StatementErasure.Action.REMOVE, decide(escaped, COMPLETED, ACTIVITY, "").action());
    }
}
