package dev.cairn.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Makes a directory's entries durable: a file created, renamed or deleted in it survives a crash once this returns. */
public final class DirectorySync {
    private DirectorySync() {
    }

    public static void sync(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync the directory " + dir + ": " + e.getMessage(), e);
        }
    }
}
