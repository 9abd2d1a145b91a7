package types

import "testing"

func TestValidClassName(t *testing.T) {
	for name, want := range map[string]bool{
		"com.example.User": true, "User": true, "a.b$C": true, "_x.y1": true, "über.Klasse": true,
		"": false, "com..User": false, "com.example.": false, "1a.B": false, "com.class.User": false,
		"not a class": false, "a-b": false, "_": false,
	} {
		if got := ValidClassName(name); got != want {
			t.Errorf("ValidClassName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestStructuredTypes checks the text of inline structured types
// (StructuredType.asSummaryString) and that the class name tells apart
// types with the same attributes.
func TestStructuredTypes(t *testing.T) {
	fields := []Field{{Name: "name", Type: StringType}, {Name: "age", Type: IntType.WithNotNull(true)}}
	u := StructuredOf("com.example.User", fields)
	if got, want := u.String(), "STRUCTURED<'com.example.User', `name` STRING, `age` INT NOT NULL>"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if u != StructuredOf("com.example.User", fields) {
		t.Error("equal structured types are not ==")
	}
	p := StructuredOf("com.example.Person", fields)
	if u == p || u == RowOf(fields) {
		t.Error("a structured type equals one of another class or a ROW")
	}
	if _, ok := CommonType(u, p); ok {
		t.Error("structured types of two classes have a common type")
	}
	if CanCast(u, p) || CanCast(u, RowOf(fields)) {
		t.Error("a structured value casts to another class or a ROW")
	}
	wide := StructuredOf("com.example.User", []Field{{Name: "name", Type: StringType}, {Name: "age", Type: BigIntType}})
	if c, ok := CommonType(u, wide); !ok || c != wide {
		t.Errorf("common type %s %v, want %s", c, ok, wide)
	}
	v := EncodeRow(u, []Value{StringValue("Bob"), IntValue(42)})
	if got := PrintValue(u, v, nil); got != "(Bob, 42)" {
		t.Errorf("printed %s", got)
	}
	w, err := Cast(v, u, wide, nil)
	if err != nil || PrintValue(wide, w, nil) != "(Bob, 42)" {
		t.Errorf("cast: %v %v", w, err)
	}
}
