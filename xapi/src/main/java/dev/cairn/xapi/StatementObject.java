package dev.cairn.xapi;

/** What a statement is about (Data 2.4.4): an Activity, an Agent or Group, a StatementRef or a SubStatement. */
public sealed interface StatementObject permits Activity, Actor, StatementRef, SubStatement {
}
