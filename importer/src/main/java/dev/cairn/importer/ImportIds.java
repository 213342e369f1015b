package dev.cairn.importer;

import dev.cairn.xapi.ParsedStatement;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Ids for imported statements that have none. The sequencer would give them random ids, so an interrupted import
 * run again would store them twice; instead each gets a name-based UUID (version 5, SHA-1) of its own bytes and
 * its position in the source, which a re-run computes again, so the sequencer sees the same statement again
 * (an equivalent one is a no-op). Two identical statements at different positions stay two statements.
 */
final class ImportIds {
    /** The UUID namespace of Cairn import ids (itself a name-based UUID of "cairn import"). */
    private static final byte[] NAMESPACE = bytes(UUID.nameUUIDFromBytes("cairn import".getBytes(StandardCharsets.US_ASCII)));

    private ImportIds() {
    }

    /** The version 5 UUID of (ordinal, json) in Cairn's import namespace. */
    static UUID of(long ordinal, byte[] json) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1", e);
        }
        sha1.update(NAMESPACE);
        for (int shift = 56; shift >= 0; shift -= 8) {
            sha1.update((byte) (ordinal >>> shift));
        }
        byte[] h = sha1.digest(json);
        h[6] = (byte) ((h[6] & 0x0f) | 0x50); // version 5
        h[8] = (byte) ((h[8] & 0x3f) | 0x80); // IETF variant
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            msb = (msb << 8) | (h[i] & 0xff);
            lsb = (lsb << 8) | (h[8 + i] & 0xff);
        }
        return new UUID(msb, lsb);
    }

    /**
     * The statement with {@code id} written into its JSON as its first property, as if the source had sent it:
     * the stored form ({@code ExactWriter}) copies the kept members' bytes, so the id must be one of them. The new
     * source holds the original bytes from the first kept member to the last (a dropped {@code stored} or
     * {@code authority} in between stays, unused); member and wrap offsets move by the length of the prefix.
     */
    static ParsedStatement withId(ParsedStatement p, UUID id) {
        int[] members = p.members();
        int from = members[0];
        int to = members[members.length - 1];
        byte[] idMember = ("\"id\":\"" + id + "\"").getBytes(StandardCharsets.US_ASCII);
        int shift = 1 + idMember.length + 1 - from;
        byte[] source = new byte[1 + idMember.length + 1 + (to - from) + 1];
        source[0] = '{';
        System.arraycopy(idMember, 0, source, 1, idMember.length);
        source[1 + idMember.length] = ',';
        System.arraycopy(p.source(), from, source, 2 + idMember.length, to - from);
        source[source.length - 1] = '}';
        int[] moved = new int[members.length + 2];
        moved[0] = 1;
        moved[1] = 1 + idMember.length;
        for (int i = 0; i < members.length; i++) {
            moved[i + 2] = members[i] + shift;
        }
        int[] wraps = p.wraps().clone();
        for (int i = 0; i < wraps.length; i++) {
            wraps[i] += shift;
        }
        return new ParsedStatement(p.statement().withId(id), source, moved, wraps);
    }

    private static byte[] bytes(UUID u) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
            b[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
        }
        return b;
    }
}
