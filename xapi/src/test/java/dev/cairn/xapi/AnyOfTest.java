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
            for (int i = 0, count = 1 + r.nextInt(round % 2 == 0 ? 6 : 40); i < count; i++) {
                byte[] n = new byte[1 + r.nextInt(round % 2 == 0 ? 4 : 7)];
                for (int k = 0; k < n.length; k++) {
                    n[k] = (byte) ('a' + r.nextInt(3));
                }
                needles.add(n);
            }
            byte[] text = new byte[r.nextInt(60)];
            for (int k = 0; k < text.length; k++) {
                text[k] = (byte) ('a' + r.nextInt(4));
            }
            assertEquals(each(needles, text), AnyOf.of(needles).in(text), "round " + round);
        }
    }

    /**
     * Strings that all hold a seldom byte are searched for around the places it stands, eight bytes at a time: found at
     * the text's start and end, across word boundaries, in texts shorter than a word, and not found where it is absent.
     */
    @Test
    void agreesWithOneSearchPerStringWhenEveryStringHoldsASeldomByte() {
        Random r = new Random(23);
        byte[] alphabet = b("ab@\\x");
        for (int round = 0; round < 3000; round++) {
            List<byte[]> needles = new ArrayList<>();
            for (int i = 0, count = 1 + r.nextInt(round % 3 == 0 ? 2 : 12); i < count; i++) {
                byte[] n = new byte[1 + r.nextInt(round % 2 == 0 ? 3 : 20)];
                for (int k = 0; k < n.length; k++) {
                    n[k] = (byte) ('a' + r.nextInt(2));
                }
                n[r.nextInt(n.length)] = alphabet[2 + r.nextInt(round % 4 == 0 ? 2 : 1)];
                needles.add(n);
            }
            byte[] text = new byte[r.nextInt(round % 5 == 0 ? 9 : 200)];
            for (int k = 0; k < text.length; k++) {
                text[k] = alphabet[r.nextInt(r.nextInt(10) == 0 ? 5 : 2)];
            }
            if (r.nextBoolean() && text.length > 0) { // plant one, anywhere
                byte[] n = needles.get(r.nextInt(needles.size()));
                int at = r.nextInt(Math.max(1, text.length - n.length + 1));
                System.arraycopy(n, 0, text, at, Math.min(n.length, text.length - at));
            }
            assertEquals(each(needles, text), AnyOf.of(needles).in(text), "round " + round);
        }
    }

    /** A dead-letter search for every id of a large erasure: a table of 256 transitions per state needed 1 KB a byte. */
    @Test
    void holdsAHundredThousandStatementIdsInMemoryOfTheirSize() {
        List<byte[]> ids = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            ids.add(b(new java.util.UUID(0x5eedL * i, i).toString()));
        }
        long before = usedMemory();
        AnyOf a = AnyOf.of(ids);
        long grown = usedMemory() - before;
        assertEquals(true, a.in(b("{\"statement\":{\"id\":\"" + new java.util.UUID(0x5eedL * 777, 777) + "\"}}")));
        assertEquals(false, a.in(b("{\"statement\":{\"id\":\"" + new java.util.UUID(0x5eedL * 777, 778) + "\"}}")));
        // 3.6 million bytes of ids: a full table per state would be 3.6 GB (more than the tests' heap); a few ints
        // per state is under 100 MB.
        assertEquals(true, grown < 256L << 20, "the automaton took " + (grown >> 20) + " MiB");
    }

    private static long usedMemory() {
        System.gc();
        return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }
}
