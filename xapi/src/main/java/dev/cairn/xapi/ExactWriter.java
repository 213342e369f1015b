package dev.cairn.xapi;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Writes the stored ({@code format=exact}) form of a statement: the properties the LRS sets first, then every
 * property the client sent, copied byte for byte from the request, except that a context activity sent as a single
 * object is enclosed in {@code [ ]} (Data 2.4.6.2: the LRS returns an array).
 */
public final class ExactWriter {
    private static final byte[] ID = bytes("{\"id\":\"");
    private static final byte[] STORED_AFTER_ID = bytes("\",\"stored\":\"");
    private static final byte[] STORED_FIRST = bytes("{\"stored\":\"");
    private static final byte[] AUTHORITY = bytes("\",\"authority\":");
    private static final byte[] VERSION = bytes(",\"version\":\"");
    private static final byte[] TIMESTAMP = bytes(",\"timestamp\":\"");

    private ExactWriter() {
    }

    /**
     * @param id        the id to add when the client sent none (ignored when it did)
     * @param stored    the stored timestamp, always set by the LRS
     * @param authority the authority JSON, always set by the LRS from the credential
     * @param version   the version to add when the client sent none
     */
    public static byte[] write(ParsedStatement parsed, UUID id, String stored, byte[] authority, String version) {
        Statement s = parsed.statement();
        int[] members = parsed.members();
        byte[] src = parsed.source();
        int[] wraps = parsed.wraps();
        // The exact size, so the buffer is allocated once and returned without a copy.
        Out out = new Out((int) length(parsed, stored.length(), authority.length, version.length()));
        if (s.id() == null) {
            out.put(ID).putAscii(id.toString()).put(STORED_AFTER_ID);
        } else {
            out.put(STORED_FIRST);
        }
        out.putAscii(stored).put(AUTHORITY).put(authority);
        if (s.version() == null) {
            out.put(VERSION).putAscii(version).putByte('"');
        }
        if (s.timestamp() == null) {
            out.put(TIMESTAMP).putAscii(stored).putByte('"');
        }
        // Members and wraps are both in source order, so one forward pass inserts every bracket.
        int w = 0;
        for (int i = 0; i < members.length; i += 2) {
            out.putByte(',');
            int from = members[i], end = members[i + 1];
            while (w < wraps.length && wraps[w] <= end) {
                out.put(src, from, wraps[w] - from).putByte((w & 1) == 0 ? '[' : ']');
                from = wraps[w++];
            }
            out.put(src, from, end - from);
        }
        out.putByte('}');
        return out.toArray();
    }

    /** The length of what {@link #write} returns, given the lengths of its stored, authority and version. */
    public static long length(ParsedStatement parsed, int storedLength, int authorityLength, int versionLength) {
        Statement s = parsed.statement();
        int[] members = parsed.members();
        long size = (s.id() == null ? ID.length + 36 + STORED_AFTER_ID.length : STORED_FIRST.length) + storedLength
                + AUTHORITY.length + authorityLength + parsed.wraps().length + 1;
        if (s.version() == null) {
            size += VERSION.length + versionLength + 1;
        }
        if (s.timestamp() == null) {
            size += TIMESTAMP.length + storedLength + 1;
        }
        for (int i = 0; i < members.length; i += 2) {
            size += members[i + 1] - members[i] + 1;
        }
        return size;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final class Out {
        private byte[] buf;
        private int len;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        Out put(byte[] b) {
            return put(b, 0, b.length);
        }

        Out put(byte[] b, int off, int n) {
            ensure(n);
            System.arraycopy(b, off, buf, len, n);
            len += n;
            return this;
        }

        Out putAscii(String s) {
            ensure(s.length());
            for (int i = 0; i < s.length(); i++) {
                buf[len++] = (byte) s.charAt(i);
            }
            return this;
        }

        Out putByte(char c) {
            ensure(1);
            buf[len++] = (byte) c;
            return this;
        }

        private void ensure(int n) {
            if (len + n > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
            }
        }

        byte[] toArray() {
            return len == buf.length ? buf : java.util.Arrays.copyOf(buf, len);
        }
    }
}
