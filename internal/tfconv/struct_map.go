package tfconv

import (
	"context"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// A fleet resource holds a map of a thousand objects, decoded into structs
// and encoded back several times per Terraform call. The framework's
// reflection (MapValue.ElementsAs, types.MapValueFrom) compiles a regular
// expression for every tagged field of every element it visits (its
// isValidFieldName): at 1,000 boundaries that was 0.45 s of a clean plan's
// 7 s of provider CPU. StructMap and MapOfStructs do the same conversions
// with each struct's fields looked up once per type. They handle the
// shapes the fleet resources use (fields that are attr.Values, nested
// structs, pointers to structs for optional objects); for anything else,
// or any value that does not fit, they hand the whole map to the framework,
// so the result and the diagnostics are the framework's own.

// StructMap is m.ElementsAs(ctx, &out, false) for a map of objects and a
// struct element type T.
func StructMap[T any](ctx context.Context, m types.Map) (map[string]T, diag.Diagnostics) {
	elems := m.Elements() // a copy of the map, made once
	out := make(map[string]T, len(elems))
	if !m.IsNull() && !m.IsUnknown() {
		ok := true
		for k, v := range elems {
			var t T
			if !decodeInto(v, reflect.ValueOf(&t).Elem()) {
				ok = false
				break
			}
			out[k] = t
		}
		if ok {
			return out, nil
		}
	}
	out = map[string]T{}
	return out, m.ElementsAs(ctx, &out, false)
}

// MapOfStructs is types.MapValueFrom(ctx, elemType, entries) for struct
// entries T and an object element type.
func MapOfStructs[T any](ctx context.Context, elemType attr.Type, entries map[string]T) (types.Map, diag.Diagnostics) {
	elems := make(map[string]attr.Value, len(entries))
	for k, e := range entries {
		v, ok := encode(reflect.ValueOf(e), elemType)
		if !ok {
			return types.MapValueFrom(ctx, elemType, entries)
		}
		elems[k] = v
	}
	m, diags := types.MapValue(elemType, elems)
	if diags.HasError() {
		return types.MapValueFrom(ctx, elemType, entries)
	}
	return m, nil
}

var attrValueType = reflect.TypeFor[attr.Value]()

// structField is one tagged field of a struct: its index and attribute name.
type structField struct {
	index int
	name  string
}

// fieldsByType caches each struct type's tagged fields.
var fieldsByType sync.Map // reflect.Type -> []structField

// fieldsOf lists t's tagged fields; ok is false when a field has no tag
// (the framework's error to give).
func fieldsOf(t reflect.Type) ([]structField, bool) {
	if f, ok := fieldsByType.Load(t); ok {
		return f.([]structField), f.([]structField) != nil
	}
	var fields []structField
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("tfsdk"), ",")
		switch {
		case tag == "-":
		case tag == "" || !t.Field(i).IsExported():
			fieldsByType.Store(t, []structField(nil))
			return nil, false
		default:
			fields = append(fields, structField{index: i, name: tag})
		}
	}
	fieldsByType.Store(t, fields)
	return fields, fields != nil
}

// decodeInto sets dst from v, reporting false for anything it does not
// handle exactly as the framework would.
func decodeInto(v attr.Value, dst reflect.Value) bool {
	t := dst.Type()
	switch {
	case t.Implements(attrValueType):
		rv := reflect.ValueOf(v)
		if !rv.IsValid() || !rv.Type().AssignableTo(t) {
			return false
		}
		dst.Set(rv)
		return true
	case t.Kind() == reflect.Struct:
		obj, ok := v.(basetypes.ObjectValue)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			return false
		}
		return decodeObject(obj, dst)
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		obj, ok := v.(basetypes.ObjectValue)
		switch {
		case !ok || obj.IsUnknown():
			return false
		case obj.IsNull():
			dst.Set(reflect.Zero(t))
			return true
		}
		p := reflect.New(t.Elem())
		if !decodeObject(obj, p.Elem()) {
			return false
		}
		dst.Set(p)
		return true
	}
	return false
}

// decodeObject sets the struct dst from obj's attributes, which must be
// exactly dst's tagged fields.
func decodeObject(obj basetypes.ObjectValue, dst reflect.Value) bool {
	fields, ok := fieldsOf(dst.Type())
	attrs := obj.Attributes()
	if !ok || len(attrs) != len(fields) {
		return false
	}
	for _, f := range fields {
		a, ok := attrs[f.name]
		if !ok || !decodeInto(a, dst.Field(f.index)) {
			return false
		}
	}
	return true
}

// encode is src as a value of type typ, reporting false for anything it
// does not handle.
func encode(src reflect.Value, typ attr.Type) (attr.Value, bool) {
	t := src.Type()
	if t.Implements(attrValueType) {
		v, _ := src.Interface().(attr.Value)
		return v, v != nil
	}
	ot, ok := typ.(basetypes.ObjectType)
	if !ok {
		return nil, false
	}
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		if src.IsNil() {
			return types.ObjectNull(ot.AttrTypes), true
		}
		src, t = src.Elem(), t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	fields, ok := fieldsOf(t)
	if !ok || len(fields) != len(ot.AttrTypes) {
		return nil, false
	}
	attrs := make(map[string]attr.Value, len(fields))
	for _, f := range fields {
		at, ok := ot.AttrTypes[f.name]
		if !ok {
			return nil, false
		}
		v, ok := encode(src.Field(f.index), at)
		if !ok {
			return nil, false
		}
		attrs[f.name] = v
	}
	v, diags := types.ObjectValue(ot.AttrTypes, attrs)
	return v, !diags.HasError()
}
