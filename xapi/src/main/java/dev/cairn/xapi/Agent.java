package dev.cairn.xapi;

/** An individual (Data 2.4.2.1), identified by exactly one IFI. */
public record Agent(String name, Ifi ifi) implements Actor {
}
