package sluice

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sluicesql/sluice/internal/catalog"
	"github.com/sluicesql/sluice/internal/planner"
	"github.com/sluicesql/sluice/internal/sql/ast"
	"github.com/sluicesql/sluice/internal/sql/parser"
)

// This file runs the statements about catalogs and databases, after
// Flink's CatalogManager, GenericInMemoryCatalog and the SQL client's
// catalog_database.q (flink-table/flink-sql-client/src/test/resources/sql).

// at gives err, if any, the position pos: the errors of the catalogs
// carry Flink's messages, the statement's name says where.
func at(pos ast.Pos, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*planner.Error); ok {
		return err
	}
	return &planner.Error{Pos: pos, Msg: err.Error()}
}

// inMemoryOptions are the options of a generic_in_memory catalog (Flink's
// GenericInMemoryCatalogFactory).
var inMemoryOptions = []string{"default-database", "property-version", "type"}

// createCatalog runs CREATE CATALOG: Sluice has catalogs of Flink's type
// generic_in_memory only, kept in memory as Flink keeps them.
func (e *Session) createCatalog(s *ast.CreateCatalog) error {
	opts := map[string]string{}
	for _, o := range s.Options {
		opts[o.Key] = o.Value
	}
	if _, ok := opts["type"]; !ok {
		// Flink's FactoryUtil.createCatalog.
		return &planner.Error{Pos: s.Pos, Msg: fmt.Sprintf("Catalog options do not contain an option key 'type' for discovering a catalog: CREATE CATALOG %s WITH ('type' = '%s')", s.Name, catalog.InMemoryType)}
	}
	if err := checkCatalogOptions(s.Options, opts); err != nil {
		return err
	}
	c := catalog.NewInMemoryCatalog(s.Name, s.Comment, opts)
	return at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.CreateCatalog(c, s.IfNotExists) }))
}

// alterCatalog runs ALTER CATALOG: SET and RESET change the options of a
// catalog made by CREATE CATALOG, COMMENT its comment. Unlike Flink, which
// opens the altered catalog anew (an empty one for generic_in_memory),
// the catalog keeps its databases.
func (e *Session) alterCatalog(s *ast.AlterCatalog) error {
	c, ok := e.catalog.mem.CatalogInfo(s.Name)
	if !ok || s.Name == catalog.DefaultCatalog {
		// Flink's CatalogManager.alterCatalog: the built-in catalog is not
		// in the catalog store.
		return &planner.Error{Pos: s.Pos, Msg: fmt.Sprintf("Catalog %s does not exist in the catalog store.", s.Name)}
	}
	opts, comment := maps.Clone(c.Options), c.Comment
	switch {
	case s.Comment != nil:
		comment = *s.Comment
	case s.Reset != nil:
		if len(s.Reset) == 0 {
			return &planner.Error{Pos: s.Pos, Msg: "ALTER CATALOG RESET does not support empty key"}
		}
		for _, k := range s.Reset {
			if k.Key == "type" {
				return &planner.Error{Pos: k.Pos, Msg: "ALTER CATALOG RESET does not support changing 'type'"}
			}
			delete(opts, k.Key)
		}
	default:
		for _, o := range s.Set {
			opts[o.Key] = o.Value
		}
		if err := checkCatalogOptions(s.Set, opts); err != nil {
			return err
		}
	}
	return at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.AlterCatalog(s.Name, comment, opts) }))
}

// describeCatalog runs DESCRIBE CATALOG [EXTENDED], as Flink's
// DescribeCatalogOperation: name, type and comment, and with EXTENDED the
// other options, sorted.
func (e *Session) describeCatalog(s *ast.DescribeCatalog) (*Result, error) {
	c, err := e.catalogDescriptor(s.Pos, s.Name)
	if err != nil {
		return nil, err
	}
	r := &Result{Kind: ResultTable, Headers: []string{"info name", "info value"},
		Rows: [][]string{{"name", c.Name}, {"type", c.Type}, {"comment", c.Comment}}}
	if s.Extended {
		for _, k := range slices.Sorted(maps.Keys(c.Options)) {
			if k != "type" {
				r.Rows = append(r.Rows, []string{"option:" + k, c.Options[k]})
			}
		}
	}
	return r, nil
}

// catalogDescriptor returns a catalog made by CREATE CATALOG, with
// Flink's error for another name (the built-in catalog has no descriptor
// in Flink's catalog store).
func (e *Session) catalogDescriptor(pos ast.Pos, name string) (catalog.Catalog, error) {
	c, ok := e.catalog.mem.CatalogInfo(name)
	if !ok || name == catalog.DefaultCatalog {
		return catalog.Catalog{}, &planner.Error{Pos: pos, Msg: fmt.Sprintf("Cannot obtain metadata information from Catalog %s.", name)}
	}
	return c, nil
}

// showCreateCatalog runs SHOW CREATE CATALOG, printed as Flink's
// ShowCreateUtil.buildShowCreateCatalogRow.
func (e *Session) showCreateCatalog(s *ast.Show) (*Result, error) {
	c, err := e.catalogDescriptor(s.Name.Pos, s.Name.Parts[0])
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("CREATE CATALOG " + quoteIdent(c.Name) + "\n")
	if c.Comment != "" {
		b.WriteString("COMMENT " + parser.QuoteString(c.Comment) + "\n")
	}
	keys := slices.Sorted(maps.Keys(c.Options))
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = "  " + parser.QuoteString(k) + " = " + parser.QuoteString(MaskValue(k, c.Options[k]))
	}
	b.WriteString("WITH (\n" + strings.Join(opts, ",\n") + "\n)\n")
	return &Result{Kind: ResultText, Text: b.String()}, nil
}

// checkCatalogOptions checks a catalog's options (all of them, after an
// ALTER CATALOG) at the given ones' positions: the type is
// generic_in_memory, every option one it has, the default database named.
func checkCatalogOptions(given []*ast.Option, opts map[string]string) error {
	for _, o := range given {
		switch {
		case o.Key == "type" && o.Value != catalog.InMemoryType:
			return &planner.Error{Pos: o.Pos, Msg: fmt.Sprintf("Catalog type '%s' is not supported: Sluice has catalogs of type '%s' only", o.Value, catalog.InMemoryType)}
		case !slices.Contains(inMemoryOptions, o.Key):
			return &planner.Error{Pos: o.Pos, Msg: fmt.Sprintf("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
				catalog.InMemoryType, o.Key, strings.Join(inMemoryOptions, "\n"))}
		case o.Key == "default-database" && strings.TrimSpace(o.Value) == "":
			return &planner.Error{Pos: o.Pos, Msg: "The option 'default-database' of a generic_in_memory catalog cannot be empty"}
		}
	}
	return nil
}

// dropCatalog runs DROP CATALOG; the session's current catalog cannot be
// dropped, nor the built-in one, which a data directory keeps.
func (e *Session) dropCatalog(s *ast.DropCatalog) error {
	switch s.Name {
	case e.curCatalog:
		return &planner.Error{Pos: s.Pos, Msg: "Cannot drop a catalog which is currently in use."}
	case catalog.DefaultCatalog:
		return &planner.Error{Pos: s.Pos, Msg: fmt.Sprintf("Dropping the built-in catalog %s is not supported: Sluice keeps it, with its databases, in the data directory", catalog.DefaultCatalog)}
	}
	return at(s.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.DropCatalog(s.Name, s.IfExists) }))
}

// useCatalog runs USE CATALOG: the catalog's default database becomes
// current too, as in Flink.
func (e *Session) useCatalog(s *ast.UseCatalog) error {
	c, ok := e.catalog.mem.CatalogInfo(s.Name)
	if !ok {
		return &planner.Error{Pos: s.Pos, Msg: fmt.Sprintf("A catalog with name [%s] does not exist.", s.Name)}
	}
	if s.Name != e.curCatalog {
		e.curCatalog, e.curDatabase = s.Name, c.DefaultDatabase
	}
	return nil
}

// databaseOf splits [catalog.]database, the catalog being the current one
// when left out.
func (e *Session) databaseOf(n ast.ObjectName) (cat, db string) {
	if len(n.Parts) == 2 {
		return n.Parts[0], n.Parts[1]
	}
	return e.curCatalog, n.Parts[0]
}

// use runs USE [catalog.]database; nothing changes unless both exist.
func (e *Session) use(s *ast.Use) error {
	cat, db := e.databaseOf(s.Name)
	if _, ok := e.catalog.mem.CatalogInfo(cat); !ok {
		return &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("A catalog with name [%s] does not exist.", cat)}
	}
	if !e.catalog.mem.DatabaseExists(cat, db) {
		return &planner.Error{Pos: s.Name.Pos, Msg: fmt.Sprintf("A database with name [%s] does not exist in the catalog: [%s].", db, cat)}
	}
	e.curCatalog, e.curDatabase = cat, db
	return nil
}

// createDatabase runs CREATE DATABASE.
func (e *Session) createDatabase(s *ast.CreateDatabase) error {
	cat, db := e.databaseOf(s.Name)
	props := map[string]string{}
	for _, o := range s.Options {
		props[o.Key] = o.Value
	}
	d := catalog.NewDatabase(db, s.Comment, props)
	return at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.CreateDatabase(cat, d, s.IfNotExists) }))
}

// dropDatabase runs DROP DATABASE: RESTRICT (the default) refuses a
// database holding tables or views, CASCADE drops them with it. The
// session's temporary objects there stay, as Flink's do.
func (e *Session) dropDatabase(s *ast.DropDatabase) error {
	cat, db := e.databaseOf(s.Name)
	if cat == e.curCatalog && db == e.curDatabase {
		return &planner.Error{Pos: s.Pos, Msg: "Cannot drop a database which is currently in use."}
	}
	return at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.DropDatabase(cat, db, s.IfExists, s.Cascade) }))
}

// alterDatabase runs ALTER DATABASE ... SET (...).
func (e *Session) alterDatabase(s *ast.AlterDatabase) error {
	cat, db := e.databaseOf(s.Name)
	set := map[string]string{}
	for _, o := range s.Set {
		set[o.Key] = o.Value
	}
	return at(s.Name.Pos, e.catalog.change(func(m *catalog.Manager) error { return m.AlterDatabase(cat, db, set) }))
}

// showDatabase returns the database a SHOW TABLES or SHOW VIEWS lists:
// the one of FROM|IN, or the current one. It must exist.
func (e *Session) showDatabase(s *ast.Show) (cat, db string, err error) {
	cat, db = e.curCatalog, e.curDatabase
	if s.From != nil {
		if len(s.From.Parts) > 2 {
			// Flink's SqlShowTablesConverter.
			what := map[ast.ShowKind]string{ast.ShowTables: "SHOW TABLES", ast.ShowViews: "SHOW VIEWS", ast.ShowFunctions: "SHOW FUNCTIONS"}[s.Kind]
			return "", "", &planner.Error{Pos: s.From.Pos, Msg: fmt.Sprintf("%s from/in identifier [ %s ] format error, it should be [catalog_name.]database_name.", what, strings.Join(s.From.Parts, "."))}
		}
		cat, db = e.databaseOf(*s.From)
	}
	pos := s.Pos
	if s.From != nil {
		pos = s.From.Pos
	}
	if _, ok := e.catalog.mem.CatalogInfo(cat); !ok {
		return "", "", &planner.Error{Pos: pos, Msg: fmt.Sprintf("Catalog %s does not exist", cat)}
	}
	if !e.catalog.mem.DatabaseExists(cat, db) {
		// Flink's ShowTablesOperation.
		return "", "", &planner.Error{Pos: pos, Msg: fmt.Sprintf("Database '%s'.'%s' doesn't exist.", cat, db)}
	}
	return cat, db, nil
}

// objectNames returns the names of the tables and views (or the views
// only) of a database, the session's temporary ones included, sorted and
// each once, as Flink's CatalogManager.listTables and listViews.
func (e *Session) objectNames(cat, db string, viewsOnly bool) []string {
	set := map[string]bool{}
	views, _ := e.catalog.mem.Views(cat, db)
	for _, v := range views {
		set[v.Name] = true
	}
	tempTables, tempViews := e.temp.In(cat, db)
	for _, v := range tempViews {
		set[v.Name] = true
	}
	if !viewsOnly {
		tables, _ := e.catalog.mem.Tables(cat, db)
		for _, t := range tables {
			set[t.Name] = true
		}
		for _, t := range tempTables {
			set[t.Name] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// filterLike keeps the names l matches (all without l), as the LIKE of
// Flink's SHOW statements (SqlLikeUtils.like with escape '\').
func filterLike(names []string, l *ast.ShowLike) []string {
	if l == nil {
		return names
	}
	var out []string
	for _, n := range names {
		p := l.Pattern
		if l.CaseInsensitive {
			n2, p2 := strings.ToLower(n), strings.ToLower(p)
			if likeMatch([]rune(n2), []rune(p2)) != l.Not {
				out = append(out, n)
			}
			continue
		}
		if likeMatch([]rune(n), []rune(p)) != l.Not {
			out = append(out, n)
		}
	}
	return out
}

// likeMatch reports whether s matches the LIKE pattern p: % any sequence,
// _ any one character, \ making the next character literal. It runs in
// time proportional to len(s) * len(p): after a mismatch it resumes after
// the last %, one character further.
func likeMatch(s, p []rune) bool {
	// The pattern as tokens: -1 for %, -2 for _, else a literal.
	var toks []rune
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\' && i+1 < len(p):
			i++
			toks = append(toks, p[i])
		case p[i] == '%':
			toks = append(toks, -1)
		case p[i] == '_':
			toks = append(toks, -2)
		default:
			toks = append(toks, p[i])
		}
	}
	si, ti := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case ti < len(toks) && (toks[ti] == -2 || toks[ti] == s[si]):
			si++
			ti++
		case ti < len(toks) && toks[ti] == -1:
			star, mark = ti, si
			ti++
		case star >= 0:
			mark++
			si, ti = mark, star+1
		default:
			return false
		}
	}
	for ti < len(toks) && toks[ti] == -1 {
		ti++
	}
	return ti == len(toks)
}
