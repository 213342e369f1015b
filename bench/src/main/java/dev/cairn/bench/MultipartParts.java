package dev.cairn.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A multipart/mixed response (RFC 2046 section 5.1; xAPI Communication 1.5.2: a statement result, then one part per
 * attachment) split into its parts, read independently of Cairn's own code so that it checks what Cairn sends.
 */
final class MultipartParts {
    /** A part: its headers (names lowercase) and its content. */
    record Part(Map<String, String> headers, byte[] content) {
    }

    private MultipartParts() {
    }

    /**
     * The parts of {@code body}, sent with {@code contentType}.
     *
     * @throws IllegalArgumentException when it is not a whole multipart/mixed body
     */
    static List<Part> split(String contentType, byte[] body) {
        int b = contentType.indexOf("boundary=");
        if (!contentType.toLowerCase(Locale.ROOT).startsWith("multipart/mixed") || b < 0) {
            throw new IllegalArgumentException("not multipart/mixed with a boundary: " + contentType);
        }
        String boundary = contentType.substring(b + "boundary=".length()).split(";")[0].strip().replace("\"", "");
        byte[] first = ("--" + boundary + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        if (indexOf(body, first, 0) != 0) {
            throw new IllegalArgumentException("the body does not start with its boundary");
        }
        List<Part> parts = new ArrayList<>();
        int at = first.length;
        while (true) {
            int headersEnd = indexOf(body, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), at);
            int end = headersEnd < 0 ? -1 : indexOf(body, next, headersEnd + 4);
            if (end < 0) {
                throw new IllegalArgumentException("part " + parts.size() + " does not end with a boundary");
            }
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line : new String(body, at, headersEnd - at, StandardCharsets.UTF_8).split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("part " + parts.size() + " has the header line '" + line + "'");
                }
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
            }
            parts.add(new Part(headers, Arrays.copyOfRange(body, headersEnd + 4, end)));
            at = end + next.length;
            if (at + 2 <= body.length && body[at] == '-' && body[at + 1] == '-') {
                return parts; // the close delimiter
            }
            if (at + 2 > body.length || body[at] != '\r' || body[at + 1] != '\n') {
                throw new IllegalArgumentException("a boundary inside part " + (parts.size() - 1));
            }
            at += 2;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
