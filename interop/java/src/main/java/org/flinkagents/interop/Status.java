package org.flinkagents.interop;

/** Status of a plan in the control topic; APPLIED never goes back to COMMITTED. */
enum Status {
    COMMITTED,
    APPLIED
}
