package dev.cairn.xapi;

import java.util.ArrayDeque;
import java.util.List;

/**
 * Whether any of a set of byte strings stands in a text, in one pass over the text however many there are (an
 * Aho-Corasick automaton, its transitions filled in for every byte): a batch of erasures looks for every person's
 * identifiers in each stored statement, and a search per person made a batch of 100 cost 100 passes over the log.
 */
public final class AnyOf {
    /** The next state for each state and byte. */
    private final int[][] next;
    /** Whether reaching each state means one of the strings ends there. */
    private final boolean[] match;

    private AnyOf(int[][] next, boolean[] match) {
        this.next = next;
        this.match = match;
    }

    /** The automaton of {@code needles}; an empty needle matches every text. */
    public static AnyOf of(List<byte[]> needles) {
        int states = 1;
        for (byte[] n : needles) {
            states += n.length;
        }
        int[][] next = new int[states][];
        boolean[] match = new boolean[states];
        next[0] = new int[256];
        java.util.Arrays.fill(next[0], -1);
        int count = 1;
        for (byte[] n : needles) { // the trie: -1 for a byte no string goes on with
            int s = 0;
            for (byte b : n) {
                int c = b & 0xff;
                if (next[s][c] < 0) {
                    next[count] = new int[256];
                    java.util.Arrays.fill(next[count], -1);
                    next[s][c] = count++;
                }
                s = next[s][c];
            }
            match[s] = true;
        }
        // Breadth first, each state's missing transitions are those of its longest proper suffix in the trie.
        int[] fail = new int[count];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int c = 0; c < 256; c++) {
            if (next[0][c] < 0) {
                next[0][c] = 0;
            } else {
                fail[next[0][c]] = 0;
                queue.add(next[0][c]);
            }
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            match[s] |= match[fail[s]];
            for (int c = 0; c < 256; c++) {
                int t = next[s][c];
                if (t < 0) {
                    next[s][c] = next[fail[s]][c];
                } else {
                    fail[t] = next[fail[s]][c];
                    queue.add(t);
                }
            }
        }
        return new AnyOf(java.util.Arrays.copyOf(next, count), java.util.Arrays.copyOf(match, count));
    }

    /** Whether one of the strings stands somewhere in {@code text}. */
    public boolean in(byte[] text) {
        if (match[0]) {
            return true;
        }
        int s = 0;
        for (byte b : text) {
            s = next[s][b & 0xff];
            if (match[s]) {
                return true;
            }
        }
        return false;
    }
}
