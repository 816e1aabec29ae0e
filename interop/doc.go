// Package interop holds the tests that prove byte compatibility with the
// Java side of the protocol: Jackson re-prints our plan files and control
// records identically, Java computes the same plan IDs, Kafka's Java client
// reads our control records as the runtime does, and we resume what the Java
// tool writes. The Java programs live in interop/java (built by
// `make interop-jar`). The tests carry the interop build tag, since they
// need Java: `make test` sets it and the jar.
package interop
