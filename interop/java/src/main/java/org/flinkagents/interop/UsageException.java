package org.flinkagents.interop;

/** The command line itself is wrong; the CLI prints usage and exits with status 2. */
final class UsageException extends Exception {
    UsageException(String message) {
        super(message);
    }
}
