package dev.cairn.importer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.cairn.auth.KeyAndSecret;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Another LRS's statements, read page by page from its GET /statements (oldest first, {@code format=exact}) and
 * the {@code more} link of each page (a path on the same server, or a full URL), until a page has none.
 * Each page is one batch.
 */
final class ImportRemote implements ImportSource {
    private static final JsonFactory JSON = new JsonFactory();

    private final HttpClient client;
    private final URI endpoint;
    private final String authorization;
    private final XapiVersion version;
    private URI next;
    private long ordinal;
    private int page;

    /**
     * @param endpoint   the other LRS's xAPI base URL, such as https://lrs.example.com/xapi
     * @param credential a credential with which to read its statements
     * @param pageSize   statements to ask for per page (the server may send fewer)
     */
    ImportRemote(HttpClient client, URI endpoint, KeyAndSecret credential, XapiVersion version, int pageSize) {
        this.client = client;
        this.endpoint = endpoint;
        this.authorization = credential.authorization();
        this.version = version;
        this.next = URI.create(endpoint.toString().replaceAll("/+$", "") + "/statements?ascending=true&format=exact&limit="
                + pageSize);
    }

    @Override
    public String name() {
        return endpoint.toString();
    }

    @Override
    public String position(ImportBatch.Raw s) {
        return "statement " + (s.ordinal() + 1) + " (page " + s.line() + ")";
    }

    @Override
    public ImportBatch next(int max) throws IOException, ImportFileException {
        while (next != null) {
            URI uri = next;
            page++;
            HttpResponse<byte[]> r = get(uri);
            if (r.statusCode() != 200) {
                throw new ImportFailedException("GET " + uri + " answered " + r.statusCode() + ": "
                        + new String(r.body(), StandardCharsets.UTF_8));
            }
            List<ImportBatch.Raw> statements = page(uri, r.body());
            if (!statements.isEmpty()) {
                return new ImportBatch(this, statements);
            }
        }
        return null;
    }

    private HttpResponse<byte[]> get(URI uri) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofMinutes(5))
                .header("X-Experience-API-Version", version.header())
                .header("Authorization", authorization)
                .header("Accept", "application/json")
                .GET().build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + uri, e);
        } catch (IOException e) {
            throw new ImportFailedException("cannot read " + uri + ": " + e, e);
        }
    }

    /** Cuts the statements of a StatementResult out of its bytes and takes its {@code more} link. */
    private List<ImportBatch.Raw> page(URI uri, byte[] body) throws IOException, ImportFileException {
        List<ImportBatch.Raw> out = new ArrayList<>();
        next = null;
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ImportFileException(uri.toString(), "", "the answer is not a StatementResult object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                if (name.equals("statements") && t == JsonToken.START_ARRAY) {
                    while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                        int start = (int) p.currentTokenLocation().getByteOffset();
                        p.skipChildren();
                        int end = (int) p.currentLocation().getByteOffset();
                        out.add(new ImportBatch.Raw(Arrays.copyOfRange(body, start, end), ordinal++, page));
                    }
                    if (t != JsonToken.END_ARRAY) {
                        throw new ImportFileException(uri.toString(), "", "its statements array holds a non-object");
                    }
                } else if (name.equals("more") && t == JsonToken.VALUE_STRING && !p.getText().isEmpty()) {
                    next = endpoint.resolve(p.getText());
                } else {
                    p.skipChildren();
                }
            }
        } catch (JsonParseException e) {
            throw new ImportFileException(uri.toString(), "line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr(), "malformed JSON: " + e.getOriginalMessage());
        }
        return out;
    }

    @Override
    public void close() {
        // nothing held between pages
    }
}
