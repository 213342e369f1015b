package dev.cairn.importer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The structure check of a file before its import, on files large enough to be checked in slices side by side:
 * the slices must count exactly what one pass counts and report a fault at its true line.
 */
class ImportFileTest {
    /** Lines of about 2 KB, so that {@link #LINES} of them pass the size from which slices are used. */
    private static final String PAD = "x".repeat(2_000);
    private static final int LINES = (int) (ImportFile.PARALLEL_CHECK_BYTES / 2_000) + 500;

    @TempDir
    Path dir;

    @Test
    void aLargeNdjsonFileIsCountedExactly() throws Exception {
        Path file = write(objectsWith(-1, null));
        assertTrue(Files.size(file) >= ImportFile.PARALLEL_CHECK_BYTES);
        assertEquals(LINES, ImportFile.checkNdjsonInParallel(file), "the slices meet and count every line");
        try (ImportFile f = ImportFile.open(file)) {
            assertEquals(LINES, f.count());
            assertEquals(ImportFile.Layout.NDJSON, f.layout());
        }
    }

    @Test
    void statementsSpanningLinesThatStartWithABraceAreCountedExactly() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            b.append("{\"n\":").append(i).append(",\"actor\":\n{\"name\":\"").append(PAD).append("\"}\n}\n");
        }
        try (ImportFile f = ImportFile.open(write(b))) {
            assertEquals(LINES, f.count());
        }
    }

    @Test
    void malformedJsonLateInALargeFileIsReportedAtItsLine() throws Exception {
        int bad = LINES - 10;
        StringBuilder b = objectsWith(bad, "{\"actor\": {\"mbox\": }}");
        ImportFileException e = assertThrows(ImportFileException.class, () -> ImportFile.open(write(b)));
        assertTrue(e.getMessage().contains("line " + (bad + 1) + ", column 20: malformed JSON"), e.getMessage());
    }

    @Test
    void illFormedUtf8LateInALargeFileIsReportedAtItsLine() throws Exception {
        int bad = LINES - 7;
        byte[] good = objectsWith(bad, "{\"name\": \"Zo\u00eb\"}").toString().getBytes(StandardCharsets.UTF_8);
        int at = indexOf(good, "Zo".getBytes(StandardCharsets.UTF_8)) + 2;
        good[at] = (byte) 0xC0; // "ë" as an overlong form: 0xC0 cannot start a UTF-8 sequence
        Path file = Files.write(dir.resolve("statements.ndjson"), good);
        ImportFileException e = assertThrows(ImportFileException.class, () -> ImportFile.open(file));
        assertTrue(e.getMessage().contains("line " + (bad + 1) + ", column"), e.getMessage());
    }

    @Test
    void aNonObjectLateInALargeFileIsReportedAtItsLine() throws Exception {
        int bad = LINES - 3;
        StringBuilder b = objectsWith(bad, "[1, 2]");
        ImportFileException e = assertThrows(ImportFileException.class, () -> ImportFile.open(write(b)));
        assertTrue(e.getMessage().contains("line " + (bad + 1) + ", column 1"), e.getMessage());
        assertTrue(e.getMessage().contains("found an array"), e.getMessage());
    }

    @Test
    void aLargeFileCutInTheMiddleOfAStatementIsRefused() throws Exception {
        StringBuilder b = objectsWith(-1, null);
        b.setLength(b.length() - 100);
        ImportFileException e = assertThrows(ImportFileException.class, () -> ImportFile.open(write(b)));
        assertTrue(e.getMessage().contains("line " + LINES), e.getMessage());
    }

    @Test
    void statementsAreCutWholeWhereverTheReadWindowEnds() throws Exception {
        StringBuilder b = new StringBuilder("[\n");
        java.util.List<String> objects = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            // Escaped quotes and backslashes, braces inside strings, nesting, and an object over two lines.
            String o = "{\"n\":" + i + ",\"s\":\"" + "\\\"\\\\{[".repeat(i % 13) + "\",\n \"o\":{\"a\":[" + i + ",{}]}}";
            objects.add(o);
            b.append(o).append(i < 299 ? ",\n" : "\n]\n");
        }
        Path file = write(b);
        for (int window : new int[] {1, 7, 64, 101}) {
            try (ImportFile f = ImportFile.open(file, window)) {
                ImportBatch batch = f.next(1_000);
                assertEquals(objects.size(), batch.statements().size(), "window " + window);
                for (int i = 0; i < objects.size(); i++) {
                    ImportBatch.Raw raw = batch.statements().get(i);
                    assertEquals(objects.get(i), new String(raw.json(), StandardCharsets.UTF_8), "window " + window);
                    assertEquals(2 + 2L * i, raw.line(), "line of statement " + i + ", window " + window);
                }
            }
        }
    }

    /** {@link #LINES} lines of one object each, but for line {@code at} (0-based), which is {@code line}. */
    private static StringBuilder objectsWith(int at, String line) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            b.append(i == at ? line : object(i)).append('\n');
        }
        return b;
    }

    private static String object(int i) {
        return "{\"n\":" + i + ",\"pad\":\"" + PAD + "\"}";
    }

    private static int indexOf(byte[] b, byte[] part) {
        for (int i = 0; i + part.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        return -1;
    }

    private Path write(CharSequence content) throws Exception {
        return Files.writeString(dir.resolve("statements.ndjson"), content, StandardCharsets.UTF_8);
    }
}
