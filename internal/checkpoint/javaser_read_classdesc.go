package checkpoint

// Class descriptors of the Java serialization grammar (javaser_read.go):
// ObjectStreamClass as written by writeClassDescriptor, and proxy classes.

// classDesc reads a class descriptor position: a new descriptor, a
// reference to a complete one, or null.
func (r *javaStreamReader) classDesc(what string) *javaClass {
	d := r.d
	if !r.nest(what) {
		return nil
	}
	defer r.unnest()
	at := d.off
	switch tc := d.u8(what); {
	case d.err != nil:
		return nil
	case tc == tcNull:
		return nil
	case tc == tcReference:
		h := r.reference(what)
		if d.err == nil && (h.kind != tcClassDesc || !h.ready) {
			d.off = at
			d.failf("%s: back-reference to a %s, not a complete class descriptor", what, javaKindName(h.kind))
		}
		if h.class == nil {
			return nil
		}
		// The descriptor as this position sees it: the one referred to,
		// located at the reference, where a change of it would be.
		c := *h.class
		c.pos = javaClassPos{at: at, ref: true, handle: h.refTo}
		return &c
	case tc == tcClassDesc:
		return r.newClassDesc()
	case tc == tcProxyClassDesc:
		return r.newProxyClassDesc()
	default:
		d.off--
		d.failf("%s: type code %#02x where a class descriptor belongs", what, tc)
		return nil
	}
}

func (r *javaStreamReader) nonNullClassDesc(what string) *javaClass {
	d := r.d
	at := d.off
	c := r.classDesc(what)
	if d.err == nil && c == nil {
		d.off = at
		d.failf("%s: null class descriptor", what)
	}
	return c
}

// newClassDesc reads a descriptor after TC_CLASSDESC (ObjectStreamClass
// .readNonProxy and the handle, annotation and superclass around it).
func (r *javaStreamReader) newClassDesc() *javaClass {
	d := r.d
	at := d.off - 1 // at TC_CLASSDESC
	c := &javaClass{pos: javaClassPos{at: at, name: at + 3}, name: r.utf("class name")}
	uidAt := d.off
	c.pos.uid = uidAt
	c.uid = d.i64("serialVersionUID")
	r.free(uidAt, d.off-uidAt)
	slot := len(r.handles)
	r.assign(javaHandle{kind: tcClassDesc, class: c})
	flagsAt := d.off
	c.pos.flags = flagsAt
	c.flags = d.u8("class flags")
	nFields := int(d.i16("field count"))
	if d.err != nil {
		return nil
	}
	switch {
	case c.flags&scSerializable != 0 && c.flags&scExternalizable != 0:
		d.off = flagsAt
		d.failf("class %s: serializable and externalizable flags conflict", c.name)
	case c.flags&scEnum != 0 && c.uid != 0:
		d.off = uidAt
		d.failf("enum class %s: non-zero serialVersionUID %d", c.name, c.uid)
	case c.flags&scEnum != 0 && nFields != 0:
		d.off = flagsAt + 1
		d.failf("enum class %s: %d fields, want none", c.name, nFields)
	case nFields < 0 || 3*nFields > d.remaining(): // a field is at least a type code and an empty name
		d.off = flagsAt + 1
		d.failf("class %s: field count %d does not fit in the %d remaining bytes", c.name, nFields, d.remaining())
		d.ended = nFields >= 0
	}
	for i := 0; i < nFields && d.err == nil; i++ {
		r.field(c)
	}
	return r.classDescEnd(c, slot)
}

// classDescEnd reads what ends every descriptor, its annotation and
// superclass; after that, back-references to it are valid.
func (r *javaStreamReader) classDescEnd(c *javaClass, slot int) *javaClass {
	r.annotation("class annotation of " + c.name)
	c.super = r.classDesc("superclass descriptor of " + c.name)
	if r.d.err != nil {
		return nil
	}
	r.handles[slot].ready = true
	return c
}

// field reads one field descriptor into c. As in ObjectStreamField, an
// object field's type is the first character of its type string, and
// primitive fields must come before object fields: Java computes value
// offsets from that order.
func (r *javaStreamReader) field(c *javaClass) {
	d := r.d
	at := d.off
	f := javaField{typeCode: d.u8("field type code")}
	f.pos.at, f.pos.name = at, at+3
	f.name = r.utf("field name")
	if d.err != nil {
		return
	}
	if f.typeCode == 'L' || f.typeCode == '[' {
		sigAt := d.off
		sig := r.object("type of field " + f.name)
		f.pos.signature, f.pos.signatureRef = sig.strAt, -1
		if sig.ref {
			f.pos.signatureRef = sig.refTo
		}
		if d.err != nil {
			return
		}
		if sig.kind != tcString || sig.str == "" {
			d.off = sigAt
			d.failf("class %s: type of field %s is %s, not a type signature", c.name, f.name, javaKindName(sig.kind))
			return
		}
		f.signature, f.typeCode = sig.str, sig.str[0]
	}
	_, primitive := javaPrimitiveSize[f.typeCode]
	switch {
	case !primitive && f.typeCode != 'L' && f.typeCode != '[':
		d.off = at
		d.failf("class %s: field %s has unknown type %q", c.name, f.name, f.typeCode)
	case primitive && len(c.fields) > 0 && !isJavaPrimitive(c.fields[len(c.fields)-1]):
		d.off = at
		d.failf("class %s: primitive field %s after an object field (illegal field order)", c.name, f.name)
	default:
		c.fields = append(c.fields, f)
	}
}

func isJavaPrimitive(f javaField) bool {
	_, ok := javaPrimitiveSize[f.typeCode]
	return ok
}

// newProxyClassDesc reads a dynamic proxy's descriptor after
// TC_PROXYCLASSDESC: its interface names, annotation and superclass.
func (r *javaStreamReader) newProxyClassDesc() *javaClass {
	d := r.d
	c := &javaClass{name: "dynamic proxy", flags: scSerializable}
	slot := len(r.handles)
	r.assign(javaHandle{kind: tcClassDesc, class: c})
	n := d.count("proxy interface count", 2)
	for i := 0; i < n && d.err == nil; i++ {
		r.utf("proxy interface name")
	}
	return r.classDescEnd(c, slot)
}
