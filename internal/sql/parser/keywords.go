package parser

import (
	"maps"
	"slices"
	"strings"
)

// statementWords are the words, besides the reserved ones, that begin or
// shape the statements Sluice parses.
var statementWords = strings.Fields(`ADD ALTER BEGIN CASCADE CATALOG CATALOGS
	COLUMNS COMMENT COMPILE CREATE DATABASE DATABASES DESCRIBE DRAIN DROP ENFORCED
	EXECUTE EXPLAIN EXTENDED FUNCTIONS IF ILIKE INSERT JOB JOBS JSON_EXECUTION_PLAN
	KEY METADATA OVERWRITE PLAN PRIMARY RENAME RESET RESTRICT SAVEPOINT SET
	SHOW STATEMENT STOP TABLES TEMPORARY TO USE VIEW VIEWS VIRTUAL
	WATERMARK`)

// Keywords returns the SQL keywords Sluice's parser knows, upper case and
// sorted: the reserved words and those of its statements.
func Keywords() []string {
	set := maps.Clone(reserved)
	for _, w := range statementWords {
		set[w] = true
	}
	return slices.Sorted(maps.Keys(set))
}
