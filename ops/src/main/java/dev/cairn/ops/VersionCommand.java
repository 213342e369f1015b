package dev.cairn.ops;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code cairn version}: the release and the xAPI versions it speaks. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the Cairn release and the xAPI versions it serves.")
final class VersionCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.println(new Main.Version().getVersion()[0] + " (xAPI 1.0.3 and 2.0.0; Java " + Runtime.version() + ")");
        return 0;
    }
}
