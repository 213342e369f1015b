package dev.cairn.xapi;

import java.util.List;

/** A statement nested as an object (Data 2.4.4.4): no id, stored, version, authority or nested SubStatement. */
public record SubStatement(
        Actor actor,
        Verb verb,
        StatementObject object,
        Result result,
        Context context,
        String timestamp,
        List<Attachment> attachments) implements StatementObject {
}
