package dev.cairn.xapi;

import java.util.UUID;

/** A reference to another statement by id (Data 2.4.4.3). */
public record StatementRef(UUID id) implements StatementObject {
}
