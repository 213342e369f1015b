package dev.cairn.xapi;

/** Finding bytes in bytes: a person's address in a stored statement, an erased id in a dead letter's body. */
public final class ByteSearch {
    private ByteSearch() {
    }

    /** Where {@code needle} first stands in {@code haystack}, or -1. */
    public static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
