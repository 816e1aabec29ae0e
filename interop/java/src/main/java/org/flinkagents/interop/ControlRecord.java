package org.flinkagents.interop;

/** The value of one control-topic record: {@code {"schemaVersion":1,"status":...,"plan":{...}}}. */
record ControlRecord(Status status, Plan plan) {}
