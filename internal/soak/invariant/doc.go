// Package invariant checks, after every night of the soak (scripts/soak.sh),
// that nothing was lost, with code that shares nothing with the provider: it
// imports none of the provider's packages (imports_test.go holds it to
// that), reads the control topics raw with franz-go and resolves their
// transactions itself, compares what the soak wrote (records, markers) with
// what Kafka still holds, and asks the Java oracle (interop/java,
// fleet-check: the runtime's restore check on Kafka's own client) whether
// every retained point would restore.
//
// The invariants, named as RELIABILITY.md names them:
//
//	(a) every retained checkpoint and savepoint of every job passes the
//	    runtime's restore check under settings that name the control topic
//	    once it holds a boundary, and finds every record it replays;
//	(b) no record at or above the markers of any retained point was
//	    deleted, and nothing the jobs produced is missing;
//	(c) the control history stays readable and consistent, and every
//	    boundary only moves forward;
//	(d) after an apply without faults: plan -detailed-exitcode exits 0,
//	    every recorded plan reads APPLIED, and each boundary has caught up
//	    with its job's oldest retained point;
//	(e) the job settings the module renders never make the runtime refuse a
//	    restore, and name the control topic once it holds a boundary;
//	(f) no secret in any log.
package invariant
