package dev.cairn.xapi;

/** The JSON null inside an extension value, where xAPI allows any JSON. */
public enum JsonNull {
    INSTANCE
}
