package dev.cairn.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a given size mounted for one test, to fill the disk for real. Mounting needs root (CI runs as root):
 * a test that cannot mount fails, it does not skip. {@link #close()} unmounts it.
 */
public final class SmallFilesystem implements AutoCloseable {
    private final Path dir;

    private SmallFilesystem(Path dir) {
        this.dir = dir;
    }

    /** Mounts a tmpfs of {@code megabytes} MiB on {@code dir} (created if missing). */
    public static SmallFilesystem mount(Path dir, int megabytes) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
        return new SmallFilesystem(dir);
    }

    public Path dir() {
        return dir;
    }

    /** Fills the filesystem with a file of zeros until no byte is left; deleting the file frees the space. */
    public Path fill(String name) {
        Path filler = dir.resolve(name);
        run("sh", "-c", "dd if=/dev/zero of='" + filler + "' bs=64k 2>/dev/null; true");
        return filler;
    }

    /** Bytes still free. */
    public long usable() {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        run("umount", "-l", dir.toString());
    }

    private static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
