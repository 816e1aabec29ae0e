package checkpointstore

import "strings"

// trimSlash drops trailing slashes but keeps a bare "/" or "scheme://".
func trimSlash(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" || strings.HasSuffix(t, ":") {
		return p
	}
	return t
}

// rewrite applies the first matching PathRewrite rule.
func (r *Router) rewrite(p string) string {
	for _, rw := range r.rewrites {
		if p == rw.From {
			return rw.To
		}
		if rest, ok := strings.CutPrefix(p, rw.From); ok && (strings.HasPrefix(rest, "/") || strings.HasSuffix(rw.From, "/")) {
			return strings.TrimRight(rw.To, "/") + "/" + strings.TrimLeft(rest, "/")
		}
	}
	return p
}

// resolve rewrites and parses p; from is p when a rule applied.
func (r *Router) resolve(p string) (o object, from string, err error) {
	q := r.rewrite(p)
	if q != p {
		from = p
	}
	o, err = parse(q)
	return o, from, err
}
