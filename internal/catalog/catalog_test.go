package catalog

import (
	"strings"
	"testing"
)

// TestCloneIsIndependent: a clone taken before a change (the data
// directory's rollback) keeps what was there, and Restore brings it back.
func TestCloneIsIndependent(t *testing.T) {
	m := New()
	if err := m.CreateDatabase(DefaultCatalog, NewDatabase("db", "", nil), false); err != nil {
		t.Fatal(err)
	}
	before := m.Clone()
	if err := m.AddTable(&Table{Catalog: DefaultCatalog, Database: "db", Name: "t"}, false); err != nil {
		t.Fatal(err)
	}
	if err := m.AlterDatabase(DefaultCatalog, "db", map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := before.Table(ObjectID{DefaultCatalog, "db", "t"}); ok {
		t.Error("the clone sees a table added after it was taken")
	}
	if info, _ := before.DatabaseInfo(DefaultCatalog, "db"); len(info.Properties) != 0 {
		t.Errorf("the clone sees properties set after it was taken: %v", info.Properties)
	}
	m.Restore(before)
	if _, ok := m.Table(ObjectID{DefaultCatalog, "db", "t"}); ok {
		t.Error("Restore kept the table")
	}
}

// TestDropDatabaseRestrictAndCascade: Flink's RESTRICT refuses a database
// holding a table or view, CASCADE drops them with it.
func TestDropDatabaseRestrictAndCascade(t *testing.T) {
	m := New()
	if err := m.AddView(&View{Catalog: DefaultCatalog, Database: DefaultDatabase, Name: "v"}, false); err != nil {
		t.Fatal(err)
	}
	err := m.DropDatabase(DefaultCatalog, DefaultDatabase, false, false)
	if err == nil || err.Error() != "Database default_database in Catalog default_catalog is not empty." {
		t.Fatalf("RESTRICT: %v", err)
	}
	if err := m.DropDatabase(DefaultCatalog, DefaultDatabase, false, true); err != nil {
		t.Fatal(err)
	}
	if m.DatabaseExists(DefaultCatalog, DefaultDatabase) {
		t.Error("CASCADE left the database")
	}
	err = m.AddTable(&Table{Name: "t"}, false)
	if err == nil || err.Error() != "Database default_database does not exist in Catalog default_catalog." {
		t.Errorf("a table in the dropped database: %v", err)
	}
}

// TestTemporaryNamespace: temporary tables and views share one namespace
// of qualified names; dropping one takes the right kind.
func TestTemporaryNamespace(t *testing.T) {
	s := NewTemporary()
	if err := s.AddTable(&Table{Catalog: "c", Database: "d", Name: "x"}, false); err != nil {
		t.Fatal(err)
	}
	err := s.AddView(&View{Catalog: "c", Database: "d", Name: "x"}, false)
	if err == nil || err.Error() != "Temporary table '`c`.`d`.`x`' already exists" {
		t.Errorf("a view over a temporary table's name: %v", err)
	}
	if err := s.Drop(ObjectID{"c", "d", "x"}, true, false); err == nil || !strings.Contains(err.Error(), "'c.d.x' does not exist") {
		t.Errorf("DROP TEMPORARY VIEW of a table: %v", err)
	}
	if tables, views := s.In("c", "d"); len(tables) != 1 || len(views) != 0 {
		t.Errorf("In: %v, %v", tables, views)
	}
	if err := s.Drop(ObjectID{"c", "d", "x"}, false, false); err != nil {
		t.Fatal(err)
	}
	if tbl, v := s.Lookup(ObjectID{"c", "d", "x"}); tbl != nil || v != nil {
		t.Error("the dropped table is still there")
	}
}
