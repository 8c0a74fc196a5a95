package app

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// EmptySlices returns v with every nil slice it holds (in struct fields, map
// values, slice elements, behind pointers and interfaces) replaced by an
// empty one, so that JSON encodes [] and never null: the API documents its
// arrays as arrays. v itself is not modified; parts without a nil slice are
// shared, not copied. Byte slices and types with their own JSON encoding are
// left alone.
func EmptySlices(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	if !mayHoldSlice(rv.Type()) {
		return v
	}
	out, changed := fillSlices(rv)
	if !changed {
		return v
	}
	return out.Interface()
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	holdCache         sync.Map // reflect.Type -> bool
)

// mayHoldSlice reports whether a value of t can contain a nil slice that
// encoding/json would write as null.
func mayHoldSlice(t reflect.Type) bool {
	if v, ok := holdCache.Load(t); ok {
		return v.(bool)
	}
	holdCache.Store(t, false) // breaks cycles; corrected below
	r := computeHold(t)
	holdCache.Store(t, r)
	return r
}

func computeHold(t reflect.Type) bool {
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer:
		return mayHoldSlice(t.Elem())
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8
	case reflect.Array:
		return mayHoldSlice(t.Elem())
	case reflect.Map:
		return mayHoldSlice(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.IsExported() && f.Tag.Get("json") != "-" && mayHoldSlice(f.Type) {
				return true
			}
		}
	}
	return false
}

func fillSlices(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if !mayHoldSlice(t) {
		return v, false
	}
	switch t.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		inner, changed := fillSlices(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(t).Elem()
		out.Set(inner)
		return out, true
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		inner, changed := fillSlices(v.Elem())
		if !changed {
			return v, false
		}
		p := reflect.New(t.Elem())
		p.Elem().Set(inner)
		return p, true
	case reflect.Slice:
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0), true
		}
		var out reflect.Value
		for i := range v.Len() {
			inner, changed := fillSlices(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeSlice(t, v.Len(), v.Len())
				reflect.Copy(out, v)
			}
			out.Index(i).Set(inner)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Map:
		if v.IsNil() {
			return v, false
		}
		var out reflect.Value
		iter := v.MapRange()
		for iter.Next() {
			inner, changed := fillSlices(iter.Value())
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.MakeMapWithSize(t, v.Len())
				it2 := v.MapRange()
				for it2.Next() {
					out.SetMapIndex(it2.Key(), it2.Value())
				}
			}
			out.SetMapIndex(iter.Key(), inner)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Struct:
		var out reflect.Value
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Tag.Get("json") == "-" {
				continue
			}
			inner, changed := fillSlices(v.Field(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Field(i).Set(inner)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	case reflect.Array:
		var out reflect.Value
		for i := range v.Len() {
			inner, changed := fillSlices(v.Index(i))
			if !changed {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(t).Elem()
				out.Set(v)
			}
			out.Index(i).Set(inner)
		}
		if out.IsValid() {
			return out, true
		}
		return v, false
	}
	return v, false
}
