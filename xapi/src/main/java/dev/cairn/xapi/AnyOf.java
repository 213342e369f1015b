package dev.cairn.xapi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 *
 * <p>When every string holds a byte that JSON text seldom holds ({@code @} of an e-mail address, {@code \\} of an
 * escape), a pass reads the text eight bytes at a time for those bytes alone, and runs the automaton only around the
 * few places they stand: a byte at a time, it read an erasure's 13.6 GB log at 400 MB/s.
 */
public final class AnyOf {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    /** The bytes that may anchor a search: seldom in statements (one {@code @} in an mbox; rarely the others). */
    private static final String SELDOM = "\\@~^`|!$%*;<>";
    /** The most anchors a pass tests each eight bytes for; past it, reading a byte at a time is as fast. */
    private static final int MOST_ANCHORS = 3;

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

    /** The anchors, each byte repeated in a long, one of which every string holds; null when some string holds none. */
    private final long[] anchors;
    /** The longest string's length. */
    private final int longest;

    private AnyOf(int[] root, int[] first, byte[] labels, int[] targets, int[] fail, boolean[] match, long[] anchors,
                  int longest) {
        this.root = root;
        this.first = first;
        this.labels = labels;
        this.targets = targets;
        this.fail = fail;
        this.match = match;
        this.anchors = anchors;
        this.longest = longest;
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
        AnyOf automaton = new AnyOf(root, firstChild, labels, targets, fail, match, anchors(sorted), path.length - 1);
        for (int s : byDepth) {
            if (depth[s] > 1) {
                fail[s] = automaton.step(fail[parent[s]], label[s]);
            }
            match[s] |= match[fail[s]];
        }
        return automaton;
    }

    /**
     * Seldom bytes one of which each of {@code needles} holds, the seldomest first, each repeated in a long; null when a
     * needle holds none or more than {@value #MOST_ANCHORS} are needed.
     */
    private static long[] anchors(byte[][] needles) {
        boolean[] covered = new boolean[needles.length];
        int left = needles.length;
        long[] out = new long[MOST_ANCHORS];
        int count = 0;
        for (int k = 0; k < SELDOM.length() && left > 0 && count < MOST_ANCHORS; k++) {
            byte b = (byte) SELDOM.charAt(k);
            boolean used = false;
            for (int n = 0; n < needles.length; n++) {
                if (!covered[n] && contains(needles[n], b)) {
                    covered[n] = true;
                    left--;
                    used = true;
                }
            }
            if (used) {
                out[count++] = (b & 0xffL) * ONES;
            }
        }
        if (left > 0 || needles.length == 0) {
            return null;
        }
        return Arrays.copyOf(out, count);
    }

    private static boolean contains(byte[] bytes, byte b) {
        for (byte x : bytes) {
            if (x == b) {
                return true;
            }
        }
        return false;
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
        if (anchors == null || length < 8) {
            return scan(text, 0, length);
        }
        // Any string found holds an anchor in one of the eight-byte words that hold one: the automaton reads each such
        // word with as many bytes either side as a string can stretch. The last word ends at the text's end, over the
        // one before it.
        for (int i = 0; i < length; i += 8) {
            int at = Math.min(i, length - 8);
            long x = (long) LONGS.get(text, at);
            long hit = 0;
            for (long a : anchors) {
                long y = x ^ a;
                hit |= (y - ONES) & ~y & HIGHS; // a high bit set where y has a zero byte (and maybe after it)
            }
            if (hit != 0 && scan(text, Math.max(0, at - longest + 1), Math.min(length, at + 7 + longest))) {
                return true;
            }
        }
        return false;
    }

    /** Whether one of the strings stands in {@code text} between {@code from} and {@code to}. */
    private boolean scan(byte[] text, int from, int to) {
        int s = 0;
        for (int i = from; i < to; i++) {
            s = step(s, text[i]);
            if (match[s]) {
                return true;
            }
        }
        return false;
    }
}
