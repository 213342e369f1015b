package dev.cairn.xapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** One pass for many strings finds exactly what a search for each one finds. */
class AnyOfTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The plain search, one string at a time, at every place of the text. */
    private static boolean each(List<byte[]> needles, byte[] text) {
        for (byte[] n : needles) {
            for (int i = 0; i + n.length <= text.length; i++) {
                if (java.util.Arrays.equals(text, i, i + n.length, n, 0, n.length)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void findsAStringThatStartsInsideAnotherOnesPartialMatch() {
        AnyOf a = AnyOf.of(List.of(b("learner-1@example.com"), b("ner-12@"), b("\\u")));
        assertEquals(true, a.in(b("{\"mbox\":\"mailto:learner-12@example.com\"}")));
        assertEquals(false, a.in(b("{\"mbox\":\"mailto:learner-11@example.com\"}")));
        assertEquals(true, a.in(b("learner-1@example.com")));
        assertEquals(true, a.in(b("a \\u0041 escape")));
        assertEquals(false, a.in(b("")));
    }

    @Test
    void agreesWithOneSearchPerStringOnRandomTexts() {
        Random r = new Random(22);
        for (int round = 0; round < 500; round++) {
            List<byte[]> needles = new ArrayList<>();
            for (int i = 0; i < 1 + r.nextInt(6); i++) {
                byte[] n = new byte[1 + r.nextInt(4)];
                for (int k = 0; k < n.length; k++) {
                    n[k] = (byte) ('a' + r.nextInt(3));
                }
                needles.add(n);
            }
            byte[] text = new byte[r.nextInt(30)];
            for (int k = 0; k < text.length; k++) {
                text[k] = (byte) ('a' + r.nextInt(4));
            }
            assertEquals(each(needles, text), AnyOf.of(needles).in(text), "round " + round);
        }
    }
}
