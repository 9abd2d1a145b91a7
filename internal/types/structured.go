package types

import (
	"strings"
	"unicode"
)

// Structured types as far as Flink's OBJECT_OF and OBJECT_UPDATE make them
// (Flink 2.1+): inline structured types, StructuredType with a class name
// and no catalog identifier, written STRUCTURED<'com.example.User', `name`
// STRING, `age` INT>. The class name only tells two structured types with
// the same fields apart; values are rows of the attributes, stored and
// printed as ROW values are ((Bob, 42), as Flink's RowToStringCastRule
// renders both), compared for equality (StructuredComparison.EQUALS), and
// cast to a structured type of the same class whose attributes they cast
// to, or to a character string.

// Structured is the STRUCTURED_TYPE kind.
const Structured Kind = Variant + 1

// StructuredOf returns the inline structured type of the class className
// with the attributes fields (nullable). Attribute types lose their time
// attributes.
func StructuredOf(className string, fields []Field) Type {
	fs := make([]Field, len(fields))
	for i, f := range fields {
		fs[i] = Field{Name: f.Name, Type: f.Type.Plain()}
	}
	return intern(Structured, composite{class: className, fields: fs})
}

// ClassName returns the class name of a structured type.
func (t Type) ClassName() string { return t.comp.class }

// HasFields reports whether t is a ROW or a structured type, whose values
// are rows of its Fields.
func (t Type) HasFields() bool { return t.Kind == RowType || t.Kind == Structured }

// javaKeywords are the reserved words of Java, which no part of a class
// name may be (javax.lang.model.SourceVersion.isKeyword).
var javaKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`abstract assert boolean break byte case catch char class const
		continue default do double else enum extends final finally float for goto if implements
		import instanceof int interface long native new package private protected public return
		short static strictfp super switch synchronized this throw throws transient try void
		volatile while true false null _`) {
		javaKeywords[k] = true
	}
}

// ValidClassName reports whether name is a qualified Java name, as
// StructuredType requires ("The class name must comply with JVM
// identifier rules", SourceVersion.isName): dot-separated identifiers,
// none a keyword.
func ValidClassName(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if part == "" || javaKeywords[part] {
			return false
		}
		for i, r := range part {
			letter := unicode.IsLetter(r) || r == '_' || r == '$'
			if !letter && (i == 0 || !unicode.IsDigit(r)) {
				return false
			}
		}
	}
	return true
}
