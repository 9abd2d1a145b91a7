package sluice

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// alterSchema returns t with the change of columns, primary key or
// watermark of ALTER TABLE ... ADD | MODIFY | DROP | RENAME, checked with
// Flink's rules and messages (its SchemaAddConverter,
// SchemaModifyConverter, SqlAlterTableSchemaDropConverter and
// SchemaReferencesManager), then bound again as CREATE TABLE binds a
// table, so that computed columns, the watermark and the options are
// checked against the new schema. An error about what the table had
// points at the change (ADD, MODIFY, ...), the table's own definition
// being in another statement.
func alterSchema(b *planner.Binder, t *catalog.Table, s *ast.AlterSchema) (*catalog.Table, error) {
	ct := &ast.CreateTable{Pos: s.Pos, Name: ast.ObjectName{Pos: s.Pos, Parts: []string{t.Catalog, t.Database, t.Name}},
		PrimaryKey: slices.Clone(t.PrimaryKey), PKName: t.PrimaryKeyName, PKPos: s.Pos, Comment: t.Comment}
	if t.Watermark != nil {
		ct.Watermark = repositioned(t.Watermark, s.Pos)
	}
	for _, c := range t.Columns {
		def := &ast.ColumnDef{Pos: s.Pos, Name: c.Name, Type: c.Type, Metadata: c.Metadata,
			MetadataKey: c.MetadataKey, Virtual: c.Virtual, Comment: c.Comment}
		if c.Computed != nil {
			def.Computed = repositioned(c.Computed, s.Pos)
			def.Type = def.Type.WithNotNull(false)
		}
		ct.Columns = append(ct.Columns, def)
	}
	keys := make([]string, 0, len(t.Options))
	for k := range t.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ct.Options = append(ct.Options, &ast.Option{Pos: s.Pos, Key: k, Value: t.Options[k]})
	}
	var err error
	switch s.Verb {
	case "ADD", "MODIFY":
		err = addOrModify(ct, s)
	case "DROP":
		err = drop(ct, s)
	case "RENAME":
		err = renameColumn(ct, s)
	}
	if err != nil {
		return nil, err
	}
	return b.CreateTable(ct)
}

// alterError is an error of ALTER TABLE's change of a schema, with
// Flink's prefix.
func alterError(pos ast.Pos, format string, args ...any) error {
	return &planner.Error{Pos: pos, Msg: "Failed to execute ALTER TABLE statement.\n" + fmt.Sprintf(format, args...)}
}

// columnIndex is the position of the column named name in ct, or -1.
func columnIndex(ct *ast.CreateTable, name string) int {
	return slices.IndexFunc(ct.Columns, func(c *ast.ColumnDef) bool { return c.Name == name })
}

// addOrModify applies ALTER TABLE ... ADD or MODIFY to ct: the columns in
// order, each where its FIRST or AFTER puts it, then the watermark and the
// primary key.
func addOrModify(ct *ast.CreateTable, s *ast.AlterSchema) error {
	add := s.Verb == "ADD"
	seen := map[string]bool{}
	for _, c := range s.Columns {
		if seen[c.Name] {
			return alterError(c.Pos, "Encounter duplicate column `%s`.", c.Name)
		}
		seen[c.Name] = true
		i := columnIndex(ct, c.Name)
		switch {
		case add && i >= 0:
			return alterError(c.Pos, "Try to add a column `%s` which already exists in the table.", c.Name)
		case !add && i < 0:
			return alterError(c.Pos, "Try to modify a column `%s` which does not exist in the table.", c.Name)
		}
		def := *c.ColumnDef
		if !add && def.Comment == "" {
			def.Comment = ct.Columns[i].Comment // kept unless the statement gives one
		}
		if !add {
			if !c.First && c.After == "" {
				ct.Columns[i] = &def
				continue
			}
			ct.Columns = slices.Delete(ct.Columns, i, i+1)
		}
		at := len(ct.Columns)
		switch {
		case c.First:
			at = 0
		case c.After != "":
			j := columnIndex(ct, c.After)
			if j < 0 {
				return alterError(c.AfterPos, "Referenced column `%s` by 'AFTER' does not exist in the table.", c.After)
			}
			at = j + 1
		}
		ct.Columns = slices.Insert(ct.Columns, at, &def)
	}
	if w := s.Watermark; w != nil {
		switch {
		case add && ct.Watermark != nil:
			return alterError(w.Pos, "The base table has already defined the watermark strategy `%s` AS %s. You might want to drop it before adding a new one.",
				ct.Watermark.Column, parser.FormatFlinkExpr(ct.Watermark.Expr))
		case !add && ct.Watermark == nil:
			return alterError(w.Pos, "The base table does not define any watermark. You might want to add a new one.")
		}
		ct.Watermark = w
	}
	if s.PrimaryKey != nil {
		switch {
		case add && ct.PrimaryKey != nil:
			return alterError(s.PKPos, "The base table has already defined the primary key constraint [`%s`]. You might want to drop it before adding a new one.",
				strings.Join(ct.PrimaryKey, "`, `"))
		case !add && ct.PrimaryKey == nil:
			return alterError(s.PKPos, "The base table does not define any primary key constraint. You might want to add a new one.")
		}
		ct.PrimaryKey, ct.PKName, ct.PKPos, ct.PKEnforced = s.PrimaryKey, s.PKName, s.PKPos, s.PKEnforced
	}
	return nil
}

// drop applies ALTER TABLE ... DROP to ct. A column is dropped only if no
// computed column left references it and neither the watermark nor the
// primary key uses it.
func drop(ct *ast.CreateTable, s *ast.AlterSchema) error {
	switch {
	case s.DropPrimaryKey:
		// DROP CONSTRAINT names the primary key's constraint, as in Flink's
		// AlterSchemaConverter (SqlAlterTableDropConstraint).
		if ct.PrimaryKey == nil {
			return alterError(s.Pos, "The base table does not define any primary key.")
		}
		if s.DropConstraint != "" && s.DropConstraint != ct.PKName {
			return alterError(s.DropConstraintPos, "The base table does not define a primary key constraint named '%s'. Available constraint name: ['%s'].",
				s.DropConstraint, ct.PKName)
		}
		ct.PrimaryKey, ct.PKName = nil, ""
		return nil
	case s.DropWatermark:
		if ct.Watermark == nil {
			return alterError(s.Pos, "The base table does not define any watermark strategy.")
		}
		ct.Watermark = nil
		return nil
	}
	dropped := map[string]bool{}
	for _, c := range s.Columns {
		dropped[c.Name] = true
	}
	for _, c := range s.Columns {
		if err := checkReferences(ct, c.ColumnDef, dropped); err != nil {
			return err
		}
		if slices.Contains(ct.PrimaryKey, c.Name) {
			return alterError(c.Pos, "The column `%s` is used as the primary key.", c.Name)
		}
	}
	ct.Columns = slices.DeleteFunc(ct.Columns, func(c *ast.ColumnDef) bool { return dropped[c.Name] })
	return nil
}

// renameColumn applies ALTER TABLE ... RENAME column TO name to ct; the
// primary key follows the column.
func renameColumn(ct *ast.CreateTable, s *ast.AlterSchema) error {
	old := s.Columns[0]
	if err := checkReferences(ct, old.ColumnDef, nil); err != nil {
		return err
	}
	if columnIndex(ct, s.RenameTo) >= 0 {
		return alterError(s.RenameToPos, "The column `%s` already existed in table schema.", s.RenameTo)
	}
	renamed := *ct.Columns[columnIndex(ct, old.Name)]
	renamed.Name = s.RenameTo
	ct.Columns[columnIndex(ct, old.Name)] = &renamed
	for i, k := range ct.PrimaryKey {
		if k == old.Name {
			ct.PrimaryKey[i] = s.RenameTo
		}
	}
	return nil
}

// checkReferences refuses to drop or rename the column c of ct while a
// computed column (other than those also dropped) or the watermark
// refers to it, as Flink's SchemaReferencesManager.checkReferences does.
func checkReferences(ct *ast.CreateTable, c *ast.ColumnDef, dropped map[string]bool) error {
	if columnIndex(ct, c.Name) < 0 {
		return alterError(c.Pos, "The column `%s` does not exist in the base table.", c.Name)
	}
	var users []string
	for _, other := range ct.Columns {
		if other.Computed != nil && !dropped[other.Name] && referencedColumns(other.Computed)[c.Name] {
			users = append(users, "`"+other.Name+"`")
		}
	}
	if len(users) > 0 {
		sort.Strings(users)
		return alterError(c.Pos, "The column `%s` is referenced by computed column %s.", c.Name, strings.Join(users, ", "))
	}
	if w := ct.Watermark; w != nil && (w.Column == c.Name || referencedColumns(w.Expr)[c.Name]) {
		return alterError(c.Pos, "The column `%s` is referenced by watermark expression.", c.Name)
	}
	return nil
}

// referencedColumns gives the names of the columns an expression of a
// table's schema refers to: the first part of every identifier in it.
func referencedColumns(e ast.Expr) map[string]bool {
	out := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if id, ok := v.Interface().(*ast.Ident); ok {
				out[id.Parts[0]] = true
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(e))
	return out
}

// repositioned returns a deep copy of the syntax tree v with every
// position set to pos; values of other packages' types (data types) are
// shared.
func repositioned[T any](v T, pos ast.Pos) T {
	posType := reflect.TypeFor[ast.Pos]()
	var dup func(v reflect.Value) reflect.Value
	dup = func(v reflect.Value) reflect.Value {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || v.Type().Elem().PkgPath() != posType.PkgPath() {
				return v
			}
			out := reflect.New(v.Type().Elem())
			out.Elem().Set(dup(v.Elem()))
			return out
		case reflect.Interface:
			if v.IsNil() {
				return v
			}
			out := reflect.New(v.Type()).Elem()
			out.Set(dup(v.Elem()))
			return out
		case reflect.Struct:
			if v.Type() == posType {
				return reflect.ValueOf(pos)
			}
			if v.Type().PkgPath() != posType.PkgPath() {
				return v
			}
			out := reflect.New(v.Type()).Elem()
			out.Set(v)
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					out.Field(i).Set(dup(v.Field(i)))
				}
			}
			return out
		case reflect.Slice:
			if v.IsNil() {
				return v
			}
			out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			for i := range v.Len() {
				out.Index(i).Set(dup(v.Index(i)))
			}
			return out
		}
		return v
	}
	return dup(reflect.ValueOf(v)).Interface().(T)
}
