package org.flinkagents.interop;

/** A plan, record or control log that breaks the contract; the CLI exits with status 1. */
final class ValidationException extends Exception {
    ValidationException(String message) {
        super(message);
    }

    ValidationException(String message, Throwable cause) {
        super(message, cause);
    }
}
