package dev.cairn.xapi;

import java.util.List;

/** A Group (Data 2.4.2.2): identified when it has an IFI, anonymous otherwise (then it must list members). */
public record Group(String name, Ifi ifi, List<Agent> members) implements Actor {
    public boolean anonymous() {
        return ifi == null;
    }
}
