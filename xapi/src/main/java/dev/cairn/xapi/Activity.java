package dev.cairn.xapi;

/** An Activity (Data 2.4.4.1): an IRI and an optional definition. */
public record Activity(String id, ActivityDefinition definition) implements StatementObject {
}
