package dev.cairn.importer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.xapi.JsonObjectSyntax;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * A file of statements: a JSON array of statement objects, or NDJSON (one statement object per line; any
 * whitespace between objects is accepted), either of them optionally gzip-compressed (recognized by its magic
 * bytes, or by a {@code .gz} name).
 *
 * <p>{@link #open} reads the whole file once with a streaming tokenizer before anything is imported (a large NDJSON
 * file in slices, one per core, with the cheaper {@link JsonObjectSyntax}), so a file that is malformed, truncated or
 * of the wrong shape is refused as a whole with the line and column of the fault, and never half-imported.
 * {@link #next} then reads it a second time and cuts it into one byte array per statement with a plain
 * bracket-and-string scanner, which is much cheaper than tokenizing it again; each statement is parsed and validated
 * later, in parallel.
 */
final class ImportFile implements ImportSource {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int BUFFER = 1 << 20;
    /** From this size on, an uncompressed NDJSON file is checked in slices on every core. */
    static final long PARALLEL_CHECK_BYTES = 4L << 20;

    enum Layout { ARRAY, NDJSON }

    private final Path path;
    private final Layout layout;
    private final long count;
    private final InputStream in;
    private final ByteWindow w;
    private long line = 1;
    private long ordinal;

    private ImportFile(Path path, Layout layout, long count, int window) throws IOException {
        this.path = path;
        this.layout = layout;
        this.count = count;
        this.in = stream(path);
        this.w = new ByteWindow(in, window);
    }

    /** Checks the whole file's structure, then opens it for reading statements. */
    static ImportFile open(Path path) throws IOException, ImportFileException {
        return open(path, BUFFER);
    }

    /** {@link #open(Path)}, reading statements {@code window} bytes at a time (more when one is longer). */
    static ImportFile open(Path path, int window) throws IOException, ImportFileException {
        String name = path.toString();
        try {
            if (!isGzip(path) && Files.size(path) >= PARALLEL_CHECK_BYTES && firstByte(path) == '{') {
                long count = checkNdjsonInParallel(path);
                if (count >= 0) {
                    return new ImportFile(path, Layout.NDJSON, count, window);
                }
            }
            try (InputStream in = stream(path); JsonParser p = JSON.createParser(in)) {
                return check(path, p, window);
            }
        } catch (JsonParseException e) {
            throw malformed(name, e);
        } catch (ZipException e) {
            throw new ImportFileException(name, "", "not a valid gzip stream: " + e.getMessage());
        } catch (EOFException e) {
            throw new ImportFileException(name, "", "the gzip stream is truncated (" + e.getMessage() + ")");
        }
    }

    private static ImportFile check(Path path, JsonParser p, int window) throws IOException, ImportFileException {
        String name = path.toString();
        JsonToken t = p.nextToken();
        if (t == null) {
            return new ImportFile(path, Layout.NDJSON, 0, window);
        }
        if (t == JsonToken.START_OBJECT) {
            return new ImportFile(path, Layout.NDJSON, checkNdjson(name, p), window);
        }
        if (t != JsonToken.START_ARRAY) {
            throw new ImportFileException(name, at(p.currentTokenLocation()), "neither a JSON array of statements "
                    + "nor NDJSON (one statement object per line): it starts with " + describe(t));
        }
        long count = 0;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw new ImportFileException(name, at(p.currentLocation()), "the array is not closed");
            }
            count++;
            if (t != JsonToken.START_OBJECT) {
                throw new ImportFileException(name, "statement " + count + " (" + at(p.currentTokenLocation()) + ")",
                        "expected a statement object in the array, found " + describe(t));
            }
            p.skipChildren();
        }
        if ((t = p.nextToken()) != null) {
            throw new ImportFileException(name, at(p.currentTokenLocation()),
                    "unexpected " + describe(t) + " after the end of the statement array");
        }
        return new ImportFile(path, Layout.ARRAY, count, window);
    }

    /** Counts the objects of NDJSON whose first token {@code p} has just read. */
    private static long checkNdjson(String name, JsonParser p) throws IOException, ImportFileException {
        long count = 0;
        JsonToken t = p.currentToken();
        while (t != null) {
            if (t != JsonToken.START_OBJECT) {
                throw new ImportFileException(name, at(p.currentTokenLocation()), "expected a statement "
                        + "object (NDJSON: one JSON object per line), found " + describe(t));
            }
            count++;
            p.skipChildren();
            t = p.nextToken();
        }
        return count;
    }

    /**
     * The structure check of a large uncompressed NDJSON file as slices checked side by side, one per core, each
     * starting at a line that starts with '{'. It is a fast path only: it returns -1, and the caller checks the file
     * from the start, when any slice finds a fault (so faults are reported with their true line) or when the
     * slices do not meet exactly (a slice began inside a statement that spans lines).
     */
    static long checkNdjsonInParallel(Path path) throws IOException {
        long size = Files.size(path);
        int slices = Runtime.getRuntime().availableProcessors();
        long[] starts = new long[slices + 1];
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            for (int i = 1; i < slices; i++) {
                starts[i] = Math.max(starts[i - 1], nextObjectLine(ch, size * i / slices, size));
            }
        }
        starts[slices] = size;
        ExecutorService threads = Executors.newFixedThreadPool(slices);
        try {
            List<Future<long[]>> checks = new ArrayList<>();
            for (int i = 0; i < slices; i++) {
                long from = starts[i];
                long to = starts[i + 1];
                checks.add(threads.submit(() -> checkSlice(path, from, to)));
            }
            long count = 0;
            for (int i = 0; i < slices; i++) {
                long[] r = checks.get(i).get();
                if (r == null || r[1] != starts[i + 1]) {
                    return -1;
                }
                count += r[0];
            }
            return count;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while checking " + path);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Checks the NDJSON objects that start in [from, to): returns their count and the offset where the next one
     * starts (the file size at its end), or null on any fault.
     */
    private static long[] checkSlice(Path path, long from, long to) {
        JsonObjectSyntax syntax = new JsonObjectSyntax();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteWindow w = new ByteWindow(Channels.newInputStream(ch.position(from)), BUFFER);
            long count = 0;
            while (true) {
                while (w.pos < w.limit && JsonObjectSyntax.isWhitespace(w.buf[w.pos])) {
                    w.pos++;
                }
                if (w.pos == w.limit) {
                    if (!w.fill()) {
                        return new long[] {count, from + w.offset + w.pos};
                    }
                    continue;
                }
                long at = from + w.offset + w.pos;
                if (at >= to) {
                    return new long[] {count, at};
                }
                int end = syntax.end(w.buf, w.pos, w.limit);
                if (end == JsonObjectSyntax.INCOMPLETE) {
                    if (!w.fill()) {
                        return null;
                    }
                    continue;
                }
                if (end == JsonObjectSyntax.MALFORMED) {
                    return null;
                }
                count++;
                w.pos = end;
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** The offset of the first line at or after {@code from} that starts with '{', or {@code size}. */
    private static long nextObjectLine(FileChannel ch, long from, long size) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        boolean afterNewline = false;
        for (long pos = from; pos < size; ) {
            b.clear();
            int n = ch.read(b, pos);
            for (int i = 0; i < n; i++) {
                byte c = b.get(i);
                if (afterNewline && c == '{') {
                    return pos + i;
                }
                afterNewline = c == '\n';
            }
            pos += n;
        }
        return size;
    }

    private static ImportFileException malformed(String name, JsonParseException e) {
        String message = e.getOriginalMessage();
        // Jackson's messages end with a long source excerpt; the line and column say enough.
        int cut = message.indexOf("\n at [Source");
        return new ImportFileException(name, at(e.getLocation()), "malformed JSON: "
                + (cut > 0 ? message.substring(0, cut) : message).replace('\n', ' '));
    }

    private static boolean isGzip(Path path) throws IOException {
        if (path.getFileName().toString().endsWith(".gz")) {
            return true;
        }
        try (InputStream in = Files.newInputStream(path)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    /** The first byte that is not whitespace, or -1. */
    private static int firstByte(Path path) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path))) {
            int c;
            while ((c = in.read()) == ' ' || c == '\t' || c == '\r' || c == '\n') {
                // skip
            }
            return c;
        }
    }

    private static InputStream stream(Path path) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(path), 1 << 16);
        return isGzip(path) ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private static String at(JsonLocation l) {
        return "line " + l.getLineNr() + ", column " + l.getColumnNr();
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> t.asString() == null ? t.name() : "'" + t.asString() + "'";
        };
    }

    Layout layout() {
        return layout;
    }

    /** How many statements the structure check counted. */
    long count() {
        return count;
    }

    @Override
    public String name() {
        return path.toString();
    }

    @Override
    public String position(ImportBatch.Raw s) {
        return layout == Layout.NDJSON ? "line " + s.line() : "statement " + (s.ordinal() + 1) + " (line " + s.line() + ")";
    }

    @Override
    public ImportBatch next(int max) throws IOException, ImportFileException {
        List<ImportBatch.Raw> out = new ArrayList<>(max);
        while (out.size() < max) {
            int start = nextObjectStart();
            if (start < 0) {
                break;
            }
            out.add(readObject());
        }
        return out.isEmpty() ? null : new ImportBatch(this, out);
    }

    /** Skips the separators before the next statement object; -1 at the end of the file. */
    private int nextObjectStart() throws IOException, ImportFileException {
        while (true) {
            if (w.pos == w.limit && !w.fill()) {
                return -1;
            }
            byte c = w.buf[w.pos];
            switch (c) {
                case '{' -> {
                    return w.pos;
                }
                case '\n' -> line++;
                case ' ', '\t', '\r', ',', '[', ']' -> { }
                default -> throw changed();
            }
            w.pos++;
        }
    }

    /** Cuts the object starting at {@code pos}, tracking only strings and nesting (the check parsed it already). */
    private ImportBatch.Raw readObject() throws IOException, ImportFileException {
        long startLine = line;
        int i = w.pos;
        int depth = 0;
        boolean inString = false;
        boolean escaped = false; // the window ended right after a backslash in a string
        while (true) {
            // Locals, not fields, in the loops over every byte: only more() moves the window.
            byte[] b = w.buf;
            int limit = w.limit;
            if (escaped) {
                i++;
                escaped = false;
            }
            while (i < limit) {
                if (inString) {
                    byte c;
                    while (i < limit && (c = b[i]) != '"' && c != '\\') {
                        i++;
                    }
                    if (i == limit) {
                        break;
                    }
                    if (b[i] == '"') {
                        inString = false;
                        i++;
                    } else if (i + 1 < limit) {
                        i += 2; // the backslash and the byte it escapes
                    } else {
                        i++;
                        escaped = true;
                        break;
                    }
                    continue;
                }
                byte c = b[i++];
                if (c == '"') {
                    inString = true;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0) {
                        byte[] json = Arrays.copyOfRange(b, w.pos, i);
                        w.pos = i;
                        return new ImportBatch.Raw(json, ordinal++, startLine);
                    }
                } else if (c == '\n') {
                    line++;
                }
            }
            i = more(i);
        }
    }

    /** Reads more of the file for an object that goes on past what was read; returns where {@code i} has moved. */
    private int more(int i) throws IOException, ImportFileException {
        int before = w.pos;
        if (!w.fill()) {
            throw changed();
        }
        return i - (before - w.pos);
    }

    private ImportFileException changed() {
        return new ImportFileException(name(), "line " + line, "the file changed while it was being imported");
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
