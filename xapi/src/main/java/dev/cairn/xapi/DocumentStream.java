package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.io.InputStream;

/**
 * Feeds one request body after another to the same Jackson parser, so that a thread parses many statements
 * without creating a parser for each: a parser, its I/O context, buffers, symbol table and nesting contexts are
 * ~900 B, a third of what parsing a 1 KB statement allocates. Jackson reads a stream of root-level values this
 * way (as for NDJSON); the parser asks for bytes only when its buffer is used up, so each body is offered once
 * the previous one has been read to its last token, and the caller checks what follows that token itself
 * instead of asking the parser, which would read past the body.
 *
 * <p>A parser is dropped after any failure, since its state is then unknown, and after
 * {@link #DOCUMENTS_PER_PARSER} bodies, so that its symbol table, which keeps every property name it reads,
 * stays small whatever names clients send. A body that does not start with '{' or '[' (a byte order mark,
 * leading whitespace) gets a parser of its own, which looks at how it starts.
 */
final class DocumentStream extends InputStream {
    static final int DOCUMENTS_PER_PARSER = 1_000;

    private final JsonFactory factory;
    private JsonParser reused;
    private int documents;
    private byte[] body;
    private int position;
    /** Bytes handed to the reused parser since it was created. */
    private long given;
    /** Where the current body starts in its parser's byte offsets. */
    private long base;

    DocumentStream(JsonFactory factory) {
        this.factory = factory;
    }

    /** A parser before the first token of {@code body}; {@link #finish} must follow. */
    JsonParser open(byte[] body) throws IOException {
        this.body = body;
        position = 0;
        if (!plainUtf8(body)) {
            base = 0;
            return factory.createParser(body);
        }
        if (documents == DOCUMENTS_PER_PARSER) {
            drop();
        }
        base = given;
        if (reused == null) {
            reused = factory.createParser(this);
        }
        documents++;
        return reused;
    }

    /** The offset in the current body of a byte offset reported by its parser. */
    int offset(long parserOffset) {
        return (int) (parserOffset - base);
    }

    /**
     * Ends the current body: a parser that read it to its last token is kept for the next one; after a failure,
     * or for a body that had a parser of its own, it is closed.
     */
    void finish(JsonParser parser, boolean readToTheEnd) throws IOException {
        body = null;
        if (parser != reused) {
            parser.close();
        } else if (!readToTheEnd) {
            drop();
        }
    }

    private void drop() throws IOException {
        if (reused != null) {
            JsonParser parser = reused;
            reused = null;
            documents = 0;
            given = 0;
            parser.close();
        }
    }

    /**
     * A byte order mark of UTF-16 or UTF-32, or a zero byte among the first four (JSON in UTF-8 has none): a body
     * the parser's byte offsets would not fit, refused before it is opened.
     */
    static boolean wideEncoding(byte[] body) {
        if (body.length >= 2 && ((body[0] == (byte) 0xFE && body[1] == (byte) 0xFF)
                || (body[0] == (byte) 0xFF && body[1] == (byte) 0xFE))) {
            return true;
        }
        for (int i = 0; i < Math.min(4, body.length); i++) {
            if (body[i] == 0) {
                return true;
            }
        }
        return false;
    }

    /** UTF-8 without a byte order mark, starting with an object or array: no encoding to detect. */
    private static boolean plainUtf8(byte[] body) {
        return body.length >= 2 && (body[0] == '{' || body[0] == '[') && body[1] != 0;
    }

    @Override
    public int read(byte[] into, int off, int len) {
        if (body == null || position == body.length) {
            return -1;
        }
        int n = Math.min(len, body.length - position);
        System.arraycopy(body, position, into, off, n);
        position += n;
        given += n;
        return n;
    }

    @Override
    public int read() {
        if (body == null || position == body.length) {
            return -1;
        }
        given++;
        return body[position++] & 0xFF;
    }
}
