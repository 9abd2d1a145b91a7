package planner

import "github.com/sluicesql/sluice/internal/sql/ast"

// likeStrategies resolves a LIKE clause's merging options into a strategy
// per feature, after Flink's defaults: INCLUDING ALL, OVERWRITING OPTIONS.
func likeStrategies(l *ast.LikeClause) map[string]string {
	out := map[string]string{"CONSTRAINTS": "INCLUDING", "GENERATED": "INCLUDING", "METADATA": "INCLUDING", "OPTIONS": "OVERWRITING", "WATERMARKS": "INCLUDING"}
	for _, o := range l.Options {
		if o.Feature == "ALL" {
			for k := range out {
				out[k] = o.Strategy
			}
			continue
		}
		out[o.Feature] = o.Strategy
	}
	return out
}

// mergeLike returns the CREATE TABLE that `CREATE TABLE ... LIKE source`
// stands for: the source table's columns, constraints, watermark and
// options merged with the statement's own as the LIKE clause says.
func (b *Binder) mergeLike(ct *ast.CreateTable) (*ast.CreateTable, error) {
	l := ct.Like
	id, err := b.Qualify(l.Source)
	if err != nil {
		return nil, err
	}
	// Flink's SqlCreateTableConverter.lookupLikeSourceTable.
	src, view := b.Lookup(id)
	if view != nil {
		return nil, errorf(&l.Source, "Source table '%s' of the LIKE clause can not be a VIEW", id)
	}
	if src == nil {
		return nil, errorf(&l.Source, "Source table '%s' of the LIKE clause not found in the catalog", id)
	}
	how := likeStrategies(l)
	merged := *ct
	merged.Like = nil
	merged.Columns = nil
	seen := map[string]bool{}
	for _, c := range src.Columns {
		switch {
		case c.Computed != nil && how["GENERATED"] == "EXCLUDING", c.Metadata && how["METADATA"] == "EXCLUDING":
			continue
		}
		def := &ast.ColumnDef{Pos: l.Pos, Name: c.Name, Type: c.Type, Computed: c.Computed, Metadata: c.Metadata,
			MetadataKey: c.MetadataKey, Virtual: c.Virtual, Comment: c.Comment}
		if c.Computed != nil {
			def.Type = def.Type.WithNotNull(false)
		}
		merged.Columns = append(merged.Columns, def)
		seen[c.Name] = true
	}
	for _, c := range ct.Columns {
		if seen[c.Name] {
			return nil, errorf(c, "A column named '%s' already exists in the base table.", c.Name)
		}
		merged.Columns = append(merged.Columns, c)
	}
	if how["CONSTRAINTS"] != "EXCLUDING" && src.PrimaryKey != nil {
		if ct.PrimaryKey != nil {
			return nil, &Error{Pos: ct.PKPos, Msg: "The base table already has a primary key. You might want to specify EXCLUDING CONSTRAINTS."}
		}
		merged.PrimaryKey, merged.PKName, merged.PKPos = src.PrimaryKey, src.PrimaryKeyName, l.Pos
	}
	if src.Watermark != nil && how["WATERMARKS"] != "EXCLUDING" {
		switch {
		case ct.Watermark == nil:
			merged.Watermark = src.Watermark
		case how["WATERMARKS"] == "INCLUDING":
			return nil, errorf(ct.Watermark, "There already exists a watermark spec for column '%s' in the base table. You might want to specify EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.", src.Watermark.Column)
		}
	}
	if how["OPTIONS"] != "EXCLUDING" {
		own := map[string]bool{}
		for _, o := range ct.Options {
			own[o.Key] = true
		}
		var opts []*ast.Option
		for k, v := range src.Options {
			if own[k] {
				if how["OPTIONS"] == "INCLUDING" {
					return nil, errorf(l, "There already exists an option ['%s' -> '%s'] in the base table. You might want to specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.", k, v)
				}
				continue
			}
			opts = append(opts, &ast.Option{Pos: l.Pos, Key: k, Value: v})
		}
		merged.Options = append(opts, ct.Options...)
	}
	if len(merged.Options) == 0 {
		return nil, errorf(l, "table '%s' has no options: EXCLUDING OPTIONS needs a WITH clause of its own", ct.Name.Parts[len(ct.Name.Parts)-1])
	}
	return &merged, nil
}
