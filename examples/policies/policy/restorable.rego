# Rule (f) on flinkagents_cleanup_boundary: recovery points named in
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
	some rc in changes(boundary_type)
	writes(rc)
	some point in object.get(rc.change.after, "unrestorable_points", [])
	some prefix in keep_restorable
	startswith(point.path, prefix)
	msg := sprintf("[keep-restorable] %s: recovery point %s (kept by %q) becomes unrestorable: %s",
		[rc.address, point.path, prefix, point.reason])
}

# Fail closed: with points to keep, a boundary whose unrestorable points are
# unknown until apply, or that was given no recovery_points, cannot be checked.
deny contains msg if {
	count(keep_restorable) > 0
	some rc in changes(boundary_type)
	writes(rc)
	unknown(rc, "unrestorable_points")
	msg := sprintf("[keep-restorable] %s: unrestorable_points is unknown until apply, so the points to keep cannot be checked", [rc.address])
}

deny contains msg if {
	count(keep_restorable) > 0
	some rc in changes(boundary_type)
	writes(rc)
	not unknown(rc, "unrestorable_points")
	object.get(rc.change.after, "unrestorable_points", null) == null
	msg := sprintf("[keep-restorable] %s: no recovery_points given, so the points to keep cannot be checked; set recovery_points = data.flinkagents_cleanup_plan.<name>.recovery_points", [rc.address])
}
