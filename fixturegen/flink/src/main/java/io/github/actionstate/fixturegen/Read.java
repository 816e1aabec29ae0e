package io.github.actionstate.fixturegen;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the oracle JSON for any checkpoint or savepoint, read with Flink's State Processor API.
 *
 * <p>Usage: {@code Read <snapshot-path> <uid | uid-hash | auto> [--base DIR]}. The path is a
 * savepoint/chk-N directory or its _metadata file; with {@code --base}, snapshotPath in the JSON
 * is made relative to DIR.
 */
public final class Read {

    private Read() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2 && !(args.length == 4 && args[2].equals("--base"))) {
            System.err.println("usage: Read <snapshot-path> <uid | uid-hash | auto> [--base DIR]");
            System.exit(2);
        }
        String pointer = args[0];
        String shown = pointer;
        if (args.length == 4) {
            shown = Path.of(args[3]).toAbsolutePath().normalize()
                    .relativize(Path.of(pointer).toAbsolutePath().normalize()).toString();
        }
        Path tmp = Files.createTempDirectory("flink-fixture-read");
        try {
            System.out.print(Oracle.read(pointer, shown, args[1], null, tmp));
        } finally {
            Generate.deleteRecursively(tmp);
        }
        System.exit(0);
    }
}
