package dev.cairn.query;

import dev.cairn.http.QueryParameters;
import dev.cairn.store.StatementPage;
import dev.cairn.store.StatementQuery;
import dev.cairn.store.StatementReader;
import dev.cairn.xapi.Activity;
import dev.cairn.xapi.Actor;
import dev.cairn.xapi.ContextActivities;
import dev.cairn.xapi.Group;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.Result;
import dev.cairn.xapi.Statement;
import dev.cairn.xapi.StatementObject;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.StatementRef;
import dev.cairn.xapi.SubStatement;
import dev.cairn.xapi.XapiVersion;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Streams every statement a statement query finds, as GET /statements with the same filters would return them
 * across all its pages (voided statements left out), one page of the store at a time: memory stays bounded by a
 * page whatever the result's size. Pages follow each other by key, as {@code more} links do, so a statement stored
 * while an export runs is in it only when the export is ascending and has not yet passed its place.
 *
 * <p>NDJSON: each statement's stored ({@code format=exact}) JSON on a line of its own; the line breaks a client put
 * between JSON tokens become spaces (JSON strings cannot hold a raw one, so nothing else changes). CSV (RFC 4180,
 * UTF-8, CRLF): a header of {@link #COLUMNS}, then one row per statement. A text cell that a spreadsheet would run
 * as a formula (starting with {@code = + - @}, a tab or a carriage return) is prefixed with {@code '}: statements
 * come from the network, and their free text from anyone who can write one.
 */
public final class StatementExport {
    /** The statement query parameters an export takes: GET /statements's filters and order. */
    public static final List<String> PARAMETERS = List.of("agent", "verb", "activity", "registration",
            "related_activities", "related_agents", "since", "until", "ascending");
    /** The CSV columns, in order; docs/export.md says what each holds. */
    public static final List<String> COLUMNS = List.of("id", "stored", "timestamp", "actor_ifi", "actor_name",
            "verb_id", "verb_display", "object_type", "object_id", "result_score_scaled", "result_score_raw",
            "result_score_min", "result_score_max", "result_success", "result_completion", "result_duration",
            "registration", "context_parent", "context_grouping", "context_category", "context_other");

    /** The output formats. */
    public enum Format { NDJSON, CSV }

    /** Statements per page read from the store, and the most bytes of statements a page holds. */
    private static final int PAGE_STATEMENTS = 1000;
    private static final long PAGE_BYTES = 8L << 20;
    private static final byte[] CRLF = {'\r', '\n'};

    private StatementExport() {
    }

    /**
     * The query of an export's parameters, checked as GET /statements checks them: anything else (a statementId,
     * a limit, a format) is refused naming the parameter, as a bad value is.
     *
     * @throws dev.cairn.xapi.XapiException naming the parameter
     */
    public static StatementQuery query(Map<String, Deque<String>> params, XapiVersion version) {
        QueryParameters.check(params, PARAMETERS, "an export");
        return StatementParams.parse(params, version, PAGE_STATEMENTS, PAGE_STATEMENTS, 0).query();
    }

    /** Writes every statement {@code query} finds to {@code out} (not closed); returns how many. */
    public static long write(StatementReader reader, StatementQuery query, Format format, OutputStream out)
            throws IOException {
        if (format == Format.CSV) {
            out.write(String.join(",", COLUMNS).getBytes(StandardCharsets.US_ASCII));
            out.write(CRLF);
        }
        long written = 0;
        long after = 0;
        StringBuilder row = new StringBuilder(512);
        while (true) {
            StatementPage page = reader.page(new StatementQuery(query.filters(), query.sinceMillis(),
                    query.untilMillis(), PAGE_STATEMENTS, query.ascending(), after), PAGE_BYTES);
            for (byte[] exact : page.statements()) {
                if (format == Format.NDJSON) {
                    writeLine(exact, out);
                } else {
                    row.setLength(0);
                    csvRow(StatementParser.parseStored(exact).statement(), row);
                    out.write(row.toString().getBytes(StandardCharsets.UTF_8));
                }
                written++;
            }
            if (!page.more() || page.statements().isEmpty()) {
                return written;
            }
            after = page.lastSeq();
        }
    }

    /** The JSON on one line: a CR or LF in it can only be whitespace between tokens. */
    private static void writeLine(byte[] json, OutputStream out) throws IOException {
        int from = 0;
        for (int i = 0; i < json.length; i++) {
            if (json[i] == '\n' || json[i] == '\r') {
                out.write(json, from, i - from);
                out.write(' ');
                from = i + 1;
            }
        }
        out.write(json, from, json.length - from);
        out.write('\n');
    }

    private static void csvRow(Statement s, StringBuilder row) {
        Result r = s.result();
        ContextActivities ca = s.context() == null ? null : s.context().contextActivities();
        cell(row, s.id().toString(), false);
        cell(row, s.stored(), false);
        cell(row, s.timestamp(), false);
        cell(row, ifi(s.actor()), true);
        cell(row, s.actor().name(), true);
        cell(row, s.verb().id(), true);
        cell(row, display(s.verb().display()), true);
        cell(row, objectType(s.object()), false);
        cell(row, objectId(s.object()), true);
        cell(row, r == null || r.score() == null ? null : plain(r.score().scaled()), false);
        cell(row, r == null || r.score() == null ? null : plain(r.score().raw()), false);
        cell(row, r == null || r.score() == null ? null : plain(r.score().min()), false);
        cell(row, r == null || r.score() == null ? null : plain(r.score().max()), false);
        cell(row, r == null || r.success() == null ? null : r.success().toString(), false);
        cell(row, r == null || r.completion() == null ? null : r.completion().toString(), false);
        cell(row, r == null ? null : r.duration(), false);
        cell(row, s.context() == null || s.context().registration() == null ? null
                : s.context().registration().toString(), false);
        cell(row, ca == null ? null : ids(ca.parent()), true);
        cell(row, ca == null ? null : ids(ca.grouping()), true);
        cell(row, ca == null ? null : ids(ca.category()), true);
        cell(row, ca == null ? null : ids(ca.other()), true);
        row.setCharAt(row.length() - 1, '\r'); // the last cell's separator becomes the row's end
        row.append('\n');
    }

    /** The IFI as Cairn keys it ({@code mbox:mailto:...}, {@code account:NAME@HOMEPAGE}, ...); empty for none. */
    private static String ifi(Actor a) {
        Ifi ifi = a == null ? null : a.ifi();
        return ifi == null ? null : ifi.key();
    }

    /** The display in en-US, else en, else its first language. */
    private static String display(Map<String, String> display) {
        if (display == null || display.isEmpty()) {
            return null;
        }
        String en = null;
        for (Map.Entry<String, String> e : display.entrySet()) {
            if (e.getKey().equalsIgnoreCase("en-US")) { // language tags are case-insensitive (RFC 5646 2.1.1)
                return e.getValue();
            }
            if (en == null && e.getKey().equalsIgnoreCase("en")) {
                en = e.getValue();
            }
        }
        return en != null ? en : display.values().iterator().next();
    }

    private static String objectType(StatementObject o) {
        if (o instanceof Actor a) {
            return a instanceof Group ? "Group" : "Agent";
        }
        return o instanceof StatementRef ? "StatementRef" : o instanceof SubStatement ? "SubStatement" : "Activity";
    }

    private static String objectId(StatementObject o) {
        if (o instanceof Activity a) {
            return a.id();
        }
        if (o instanceof StatementRef r) {
            return r.id().toString();
        }
        return o instanceof Actor a ? ifi(a) : null;
    }

    private static String plain(BigDecimal d) {
        return d == null ? null : d.toPlainString();
    }

    /** Activity ids separated by spaces (an IRI holds none). */
    private static String ids(List<Activity> activities) {
        if (activities == null || activities.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (Activity a : activities) {
            b.append(b.isEmpty() ? "" : " ").append(a.id());
        }
        return b.toString();
    }

    /** One cell and its separator: quoted when it holds a quote, comma or line break; text guarded from formulas. */
    private static void cell(StringBuilder row, String value, boolean text) {
        if (value != null && !value.isEmpty()) {
            boolean formula = text && "=+-@\t\r".indexOf(value.charAt(0)) >= 0;
            boolean quote = formula || value.indexOf('"') >= 0 || value.indexOf(',') >= 0
                    || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0;
            if (quote) {
                row.append('"');
                if (formula) {
                    row.append('\'');
                }
                for (int i = 0; i < value.length(); i++) {
                    char c = value.charAt(i);
                    row.append(c);
                    if (c == '"') {
                        row.append('"');
                    }
                }
                row.append('"');
            } else {
                row.append(value);
            }
        }
        row.append(',');
    }
}
