# Rule (f) on cleanup boundaries: recovery points named in
# params.json stay restorable. The provider lists, at plan time, the points of
# the boundary's recovery_points that the new boundary makes unrestorable
# (unrestorable_points); its keep_restorable refuses the same in the
# configuration, this rule in review, where the list lives beside the
# approvals rather than in the module.
package main

import rego.v1

# Path prefixes of recovery points that must stay restorable, for example
# {"params": {"keep_restorable": ["s3://ckpt/savepoints/release-"]}}.
default keep_restorable := []

keep_restorable := data.params.keep_restorable

deny contains msg if {
	some b in boundary_writes
	some point in object.get(b.after, "unrestorable_points", [])
	some prefix in keep_restorable
	startswith(point.path, prefix)
	msg := sprintf("[keep-restorable] %s: recovery point %s (kept by %q) becomes unrestorable: %s",
		[b.address, point.path, prefix, point.reason])
}

# Fail closed: with points to keep, a boundary whose unrestorable points are
# unknown until apply, or that was given no recovery_points, cannot be checked.
deny contains msg if {
	count(keep_restorable) > 0
	some b in boundary_writes
	object.get(b.unknown, "unrestorable_points", false) == true
	msg := sprintf("[keep-restorable] %s: unrestorable_points is unknown until apply, so the points to keep cannot be checked", [b.address])
}

# An entry of flinkagents_cleanup_boundaries has no recovery_points: with
# points to keep, use flinkagents_cleanup_boundary for that operator.
deny contains msg if {
	count(keep_restorable) > 0
	some b in boundary_writes
	object.get(b.unknown, "unrestorable_points", false) != true
	object.get(b.after, "unrestorable_points", null) == null
	msg := sprintf("[keep-restorable] %s: no recovery_points given, so the points to keep cannot be checked; set recovery_points = data.flinkagents_cleanup_plan.<name>.recovery_points", [b.address])
}
