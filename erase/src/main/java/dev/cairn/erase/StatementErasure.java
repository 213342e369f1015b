package dev.cairn.erase;

import dev.cairn.xapi.AnyOf;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cairn.xapi.ActivityDefinitions;
import dev.cairn.xapi.AgentNames;
import dev.cairn.xapi.DefinitionWriter;
import dev.cairn.xapi.Ifi;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.StatementResidue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What the erasure of some people does to one stored statement (docs/erasure.md):
 * <ul>
 *   <li>{@link Action#REMOVE} when its actor is one of them, or a Group with one of them as a member or as its own
 *       identifier, but a voiding statement, whose target must stay voided, which is rewritten instead;</li>
 *   <li>{@link Action#REWRITE} when one of them appears anywhere else (object, instructor, team, context agents,
 *       authority, a SubStatement, even an extension): each Agent or Group object they identify gets the erasure's
 *       placeholder identifier ({@code openid} {@code urn:cairn:erased:E}) instead of theirs and loses its name, and
 *       their e-mail address, openid or mbox_sha1sum, wherever it stands in a string, becomes {@code erased}. A
 *       signed statement, whose signature would no longer verify, and one the rewrite would make invalid, are
 *       removed instead;</li>
 *   <li>{@link Action#KEEP} otherwise: its bytes stay as they are.</li>
 * </ul>
 * IFIs are compared exactly, as Cairn compares them everywhere.
 */
final class StatementErasure {
    static final String PLACEHOLDER_PREFIX = "urn:cairn:erased:";
    private static final String SIGNATURE_USAGE = "http://adlnet.gov/expapi/attachments/signature";
    private static final String VOIDED = "http://adlnet.gov/expapi/verbs/voided";
    private static final String ERASED_TEXT = "erased";
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true)).build();

    enum Action { KEEP, REMOVE, REWRITE }

    /** @param json the rewritten statement, for {@link Action#REWRITE} */
    record Decision(Action action, byte[] json) {
        static final Decision KEEP = new Decision(Action.KEEP, null);
        static final Decision REMOVE = new Decision(Action.REMOVE, null);
    }

    private final Set<String> keys;
    /**
     * Their identifying strings, which a statement must hold to name them, and the escapes that could spell one ({@code
     * \\u}, {@code \\/}: a client may escape any character of a JSON string), in one automaton.
     */
    private final AnyOf mayName;
    private final List<byte[]> needles;
    /** The strings {@link #scrub} replaces in text: what may change in a string that is not an Agent's identifier. */
    private final AnyOf inText;
    /** The strings scrubbed from text wherever they stand: e-mail addresses, openids, SHA-1 sums. */
    private final List<String> texts;
    private final String placeholder;

    /** @param erasureId the erasure's own random id, which names its placeholder (never derived from an IFI) */
    StatementErasure(List<Ifi> people, String erasureId) {
        this.keys = people.stream().map(Ifi::key).collect(Collectors.toSet());
        this.texts = new ArrayList<>();
        List<byte[]> needles = new ArrayList<>(List.of(new byte[] {'\\', 'u'}, new byte[] {'\\', '/'}));
        for (Ifi ifi : people) {
            String text = switch (ifi.kind()) {
                case MBOX -> ifi.value().startsWith("mailto:") ? ifi.value().substring("mailto:".length()) : ifi.value();
                case MBOX_SHA1SUM, OPENID -> ifi.value();
                case ACCOUNT -> null;
            };
            if (text != null && !text.isEmpty()) {
                texts.add(text);
            }
            needles.add((ifi.kind() == Ifi.Kind.ACCOUNT ? ifi.accountName() : text == null ? ifi.value() : text)
                    .getBytes(StandardCharsets.UTF_8));
        }
        this.needles = List.copyOf(needles);
        this.mayName = AnyOf.of(needles);
        this.inText = AnyOf.of(texts.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList());
        this.placeholder = PLACEHOLDER_PREFIX + erasureId;
    }

    /** The IFI keys of the people erased. */
    Set<String> keys() {
        return keys;
    }

    /** What happens to the statement whose stored JSON is {@code json}. */
    Decision decide(byte[] json) {
        if (!mayName.in(json)) {
            return Decision.KEEP;
        }
        ObjectNode statement = tree(json);
        boolean voiding = VOIDED.equals(statement.path("verb").path("id").asText(null))
                && "StatementRef".equals(statement.path("object").path("objectType").asText(null));
        boolean theirs = identifies(statement.get("actor"));
        if (theirs && !voiding) {
            return Decision.REMOVE;
        }
        if (!rewrite(statement)) {
            return Decision.KEEP;
        }
        if (signed(statement)) {
            return Decision.REMOVE;
        }
        byte[] rewritten;
        try {
            rewritten = JSON.writeValueAsBytes(statement);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        try {
            StatementParser.parseStored(rewritten);
        } catch (RuntimeException e) {
            return Decision.REMOVE; // the person was part of what made it valid: nothing of it is kept
        }
        return new Decision(Action.REWRITE, rewritten);
    }

    /**
     * What a statement the erasure removes leaves in its place ({@link StatementResidue}), encoded, or null when
     * nothing: the activity definitions it gave and the names it gave the agents {@code keepsName} keeps, with the
     * people taken out as {@link #scrubResidue} takes them out of any residue.
     */
    byte[] residue(byte[] json, Predicate<String> keepsName) {
        StatementResidue residue = StatementResidue.of(StatementParser.parseStored(json).statement(), keepsName);
        if (residue.isEmpty()) {
            return null;
        }
        byte[] encoded = residue.encode();
        byte[] scrubbed = scrubResidue(encoded);
        return scrubbed == null ? encoded : scrubbed.length == 0 ? null : scrubbed;
    }

    /**
     * The residue an earlier erasure left ({@link StatementResidue}'s bytes) with the people taken out: their names
     * dropped, their addresses taken out of the definitions' texts and the other names, as a rewritten statement loses
     * them; null when it holds none of them, and no bytes when nothing is left.
     */
    byte[] scrubResidue(byte[] residue) {
        StatementResidue read = StatementResidue.decode(residue);
        boolean named = read.names().stream().anyMatch(n -> keys.contains(n.ifiKey()));
        if (!named && !mayName.in(residue)) {
            return null;
        }
        List<ActivityDefinitions.Defined> definitions = new ArrayList<>();
        boolean changed = named;
        for (ActivityDefinitions.Defined d : read.definitions()) {
            ObjectNode definition = tree(DefinitionWriter.write(d.definition()));
            String id = scrub(d.activityId());
            if (rewrite(definition) || id != null) {
                changed = true;
                try {
                    definitions.add(new ActivityDefinitions.Defined(id != null ? id : d.activityId(),
                            StatementParser.parseActivityDefinition(JSON.writeValueAsBytes(definition))));
                } catch (JsonProcessingException | RuntimeException e) {
                    // scrubbed into no valid definition: nothing of it is kept
                }
            } else {
                definitions.add(d);
            }
        }
        List<AgentNames.Named> names = new ArrayList<>();
        for (AgentNames.Named n : read.names()) {
            if (!keys.contains(n.ifiKey())) {
                String name = scrub(n.name());
                changed |= name != null;
                names.add(name == null ? n : new AgentNames.Named(n.ifiKey(), name));
            }
        }
        if (!changed) {
            return null;
        }
        StatementResidue out = new StatementResidue(definitions, names);
        return out.isEmpty() ? new byte[0] : out.encode();
    }

    /**
     * An activity's stored definition (JSON) with the people taken out as {@link #scrubResidue} takes them out of a
     * definition, or null when it holds none of them. The change is made value by value, so it gives the same as
     * merging the scrubbed definitions that made it.
     */
    byte[] scrubDefinition(byte[] definition) {
        if (!mayName.in(definition)) {
            return null;
        }
        ObjectNode tree = tree(definition);
        if (!rewrite(tree)) {
            return null;
        }
        try {
            return JSON.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether {@code value} (a key: an IRI, an identifier) holds a string the erasure replaces in text, and so may be
     * changed by it; an account name is not replaced in text, only the Agent it identifies.
     */
    boolean mayChange(byte[] value) {
        return inText.in(value);
    }

    /** The strings {@link #mayName} looks for. */
    List<byte[]> needles() {
        return needles;
    }

    /** Whether {@code text} holds one of the strings that name the people, which an erasure may change. */
    boolean mayName(byte[] text) {
        return mayName.in(text);
    }

    private static ObjectNode tree(byte[] json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("a stored statement does not parse: " + e.getMessage(), e);
        }
    }

    /** Whether {@code actor} is one of the people, or a Group they identify or are a member of. */
    private boolean identifies(JsonNode actor) {
        if (!(actor instanceof ObjectNode a)) {
            return false;
        }
        if (keys.contains(ifiKey(a))) {
            return true;
        }
        if (a.get("member") instanceof ArrayNode members) {
            for (JsonNode m : members) {
                if (m instanceof ObjectNode o && keys.contains(ifiKey(o))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Rewrites every appearance of the people in {@code node}, in place; whether there was one. */
    private boolean rewrite(JsonNode node) {
        boolean changed = false;
        if (node instanceof ObjectNode o) {
            if (keys.contains(ifiKey(o))) {
                o.remove(List.of("mbox", "mbox_sha1sum", "openid", "account", "name"));
                o.put("openid", placeholder);
                changed = true;
            }
            Iterator<Map.Entry<String, JsonNode>> fields = o.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (f.getValue() instanceof TextNode t) {
                    String scrubbed = scrub(t.textValue());
                    if (scrubbed != null) {
                        f.setValue(TextNode.valueOf(scrubbed));
                        changed = true;
                    }
                } else {
                    changed |= rewrite(f.getValue());
                }
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i) instanceof TextNode t) {
                    String scrubbed = scrub(t.textValue());
                    if (scrubbed != null) {
                        a.set(i, TextNode.valueOf(scrubbed));
                        changed = true;
                    }
                } else {
                    changed |= rewrite(a.get(i));
                }
            }
        }
        return changed;
    }

    /**
     * {@code text} with the people's identifying strings replaced where they stand alone (not inside a longer
     * address: {@code xada@example.com} is someone else's), or null when it holds none.
     */
    String scrub(String text) {
        String out = text;
        for (String t : texts) {
            int from = 0;
            int at;
            while ((at = out.indexOf(t, from)) >= 0) {
                int end = at + t.length();
                if ((at == 0 || !partOfAddress(out.charAt(at - 1))) && endsThere(out, end)) {
                    out = out.substring(0, at) + ERASED_TEXT + out.substring(end);
                    from = at + ERASED_TEXT.length();
                } else {
                    from = at + 1;
                }
            }
        }
        return out.equals(text) ? null : out;
    }

    /** Whether an address ends at {@code end} of {@code text}: a full stop that ends a sentence is not part of it. */
    private static boolean endsThere(String text, int end) {
        if (end == text.length() || !partOfAddress(text.charAt(end))) {
            return true;
        }
        return text.charAt(end) == '.' && (end + 1 == text.length() || !Character.isLetterOrDigit(text.charAt(end + 1)));
    }

    private static boolean partOfAddress(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-' || c == '+' || c == '%';
    }

    private static boolean signed(ObjectNode statement) {
        if (statement.get("attachments") instanceof ArrayNode attachments) {
            for (JsonNode a : attachments) {
                if (SIGNATURE_USAGE.equals(a.path("usageType").asText(null))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The {@link Ifi#key()} of the Agent or Group {@code o} would be, or null when it has no single IFI. */
    private static String ifiKey(ObjectNode o) {
        if (o.get("mbox") instanceof TextNode t) {
            return new Ifi(Ifi.Kind.MBOX, t.textValue(), null).key();
        }
        if (o.get("mbox_sha1sum") instanceof TextNode t) {
            return new Ifi(Ifi.Kind.MBOX_SHA1SUM, t.textValue(), null).key();
        }
        if (o.get("openid") instanceof TextNode t) {
            return new Ifi(Ifi.Kind.OPENID, t.textValue(), null).key();
        }
        if (o.get("account") instanceof ObjectNode account && account.get("homePage") instanceof TextNode home
                && account.get("name") instanceof TextNode name) {
            return new Ifi(Ifi.Kind.ACCOUNT, home.textValue(), name.textValue()).key();
        }
        return null;
    }

}
