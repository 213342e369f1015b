package dev.cairn.xapi;

import java.util.Arrays;
import java.util.List;

/**
 * Whether any of a set of byte strings stands in a text, in one pass over the text however many there are (an
 * Aho-Corasick automaton): a batch of erasures looks for every person's identifiers in each stored statement, and a
 * search per person made a batch of 100 cost 100 passes over the log.
 *
 * <p>Its memory grows with the strings' bytes, not 256-fold: only the first state has a transition for every byte;
 * every other state keeps its children (a few bytes, often one) and a failure link. A full table per state made the
 * 19,800 erased statement ids a dead-letter search looks for into 713,000 rows of 1 KB, and ran out of memory.
 */
public final class AnyOf {
    /** The first state's next state for each byte (0: back to it). */
    private final int[] root;
    /** State s's children are {@code labels[i]}, {@code targets[i]} for i from {@code first[s]} to {@code first[s + 1]}. */
    private final int[] first;
    private final byte[] labels;
    private final int[] targets;
    /** The state of each state's longest proper suffix that is a prefix of one of the strings. */
    private final int[] fail;
    /** Whether reaching each state means one of the strings ends there. */
    private final boolean[] match;

    private AnyOf(int[] root, int[] first, byte[] labels, int[] targets, int[] fail, boolean[] match) {
        this.root = root;
        this.first = first;
        this.labels = labels;
        this.targets = targets;
        this.fail = fail;
        this.match = match;
    }

    /** The automaton of {@code needles}; an empty needle matches every text. */
    public static AnyOf of(List<byte[]> needles) {
        byte[][] sorted = needles.toArray(new byte[0][]);
        Arrays.sort(sorted, Arrays::compareUnsigned);
        int max = 1;
        for (byte[] n : sorted) {
            max += n.length;
        }
        // The trie, from the strings in order: each shares with the one before it the path of their common prefix,
        // so only that path (a stack) is needed to find where its new states branch off.
        int[] parent = new int[max];
        byte[] label = new byte[max];
        int[] depth = new int[max];
        boolean[] ends = new boolean[max];
        int[] path = new int[sorted.length == 0 ? 1 : Arrays.stream(sorted).mapToInt(n -> n.length).max().getAsInt() + 1];
        int count = 1;
        byte[] previous = new byte[0];
        for (byte[] n : sorted) {
            int mismatch = Arrays.mismatch(previous, n);
            int common = mismatch < 0 ? n.length : mismatch;
            for (int i = common; i < n.length; i++) {
                parent[count] = path[i];
                label[count] = n[i];
                depth[count] = i + 1;
                path[i + 1] = count++;
            }
            ends[path[n.length]] = true;
            previous = n;
        }
        // Children by parent, in creation order, which is each parent's children in byte order.
        int[] firstChild = new int[count + 1];
        for (int s = 1; s < count; s++) {
            firstChild[parent[s] + 1]++;
        }
        for (int s = 0; s < count; s++) {
            firstChild[s + 1] += firstChild[s];
        }
        byte[] labels = new byte[count - 1];
        int[] targets = new int[count - 1];
        int[] fill = Arrays.copyOf(firstChild, count);
        for (int s = 1; s < count; s++) {
            int i = fill[parent[s]]++;
            labels[i] = label[s];
            targets[i] = s;
        }
        int[] root = new int[256];
        for (int i = firstChild[0]; i < firstChild[1]; i++) {
            root[labels[i] & 0xff] = targets[i];
        }
        // Failure links shallowest first: a state's suffix is shallower than it, so its own link is known already.
        int[] atDepth = new int[path.length + 1];
        for (int s = 0; s < count; s++) {
            atDepth[depth[s] + 1]++;
        }
        for (int d = 0; d < path.length; d++) {
            atDepth[d + 1] += atDepth[d];
        }
        int[] byDepth = new int[count];
        for (int s = 0; s < count; s++) {
            byDepth[atDepth[depth[s]]++] = s;
        }
        int[] fail = new int[count];
        boolean[] match = Arrays.copyOf(ends, count);
        AnyOf automaton = new AnyOf(root, firstChild, labels, targets, fail, match);
        for (int s : byDepth) {
            if (depth[s] > 1) {
                fail[s] = automaton.step(fail[parent[s]], label[s]);
            }
            match[s] |= match[fail[s]];
        }
        return automaton;
    }

    /** The state after {@code s} reads byte {@code b}. */
    private int step(int s, byte b) {
        while (s != 0) {
            for (int i = first[s], end = first[s + 1]; i < end; i++) {
                if (labels[i] == b) {
                    return targets[i];
                }
            }
            s = fail[s];
        }
        return root[b & 0xff];
    }

    /** Whether one of the strings stands somewhere in {@code text}. */
    public boolean in(byte[] text) {
        return in(text, text.length);
    }

    /** Whether one of the strings stands in the first {@code length} bytes of {@code text}. */
    public boolean in(byte[] text, int length) {
        if (match[0]) {
            return true;
        }
        int s = 0;
        for (int i = 0; i < length; i++) {
            s = step(s, text[i]);
            if (match[s]) {
                return true;
            }
        }
        return false;
    }
}
