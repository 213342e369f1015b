package dev.cairn.xapi;

/** An Agent or a Group (Data 2.4.2). */
public sealed interface Actor extends StatementObject permits Agent, Group {
    /** The identifying IFI; null only for an anonymous Group. */
    Ifi ifi();

    String name();
}
