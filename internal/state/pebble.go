package state

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
)

// Pebble is a Backend that keeps its tables in a Pebble database (an LSM
// store of RocksDB's design) in a directory of its own, for state larger
// than memory, as Flink's RocksDB state backend does.
//
// Layout: every table is a key space of its own (as Flink's column family
// per state), prefixed by the table's length-prefixed name; within it a
// keyed entry's key is its key group (two bytes, big-endian) followed by
// its key, so the entries of a key group, and of a range of key groups,
// are contiguous. Operator tables' entries take group 0xFFFF, above any
// key group. Values are the tables' codecs' encodings.
//
// Values handed out by Get and All stay decoded in a write-back cache, as
// changed, until Release finds more than CacheEntries of them (or a
// snapshot is taken): they are then encoded and written (those whose
// encoding differs from what the database holds), so an operator may
// change a value in place as it does with the memory backend. The
// database has no write-ahead log: the checkpoints make state durable,
// and the directory is scratch, removed by Close.
type Pebble struct {
	tableSet[storedTable]
	// CacheEntries is how many decoded values and deletions Release
	// keeps before writing them back.
	CacheEntries   int
	dir            string
	maxParallelism int
	db             *pebble.DB
	dbDir          string
	// seq numbers the databases and checkpoint directories made in dir.
	seq int
	// held are the directories of incremental snapshots whose files are
	// still to be read (until their release), guarded by mu, which
	// Close and the releases (from another goroutine) share; closed is
	// set by Close, after which the last release removes dir.
	mu     sync.Mutex
	held   map[string]bool
	closed bool
	// hashes holds the SHA-256 of the database's immutable files, by
	// file name.
	hashes map[string]string
	// tune changes the options of the databases (nil: none).
	tune func(*pebble.Options)
	// err is the first failure of the database, reported by Release and
	// the snapshots.
	err error
}

// DefaultCacheEntries is a Pebble backend's CacheEntries unless set.
const DefaultCacheEntries = 1 << 16

// operatorGroup is the group bytes of operator tables' entries.
const operatorGroup = 0xFFFF

// NewPebble returns an empty Pebble backend in dir, which it owns: what
// dir holds is removed, and dir is made readable by its owner only. Keys are placed by their key group of
// maxParallelism groups.
func NewPebble(dir string, maxParallelism int) (*Pebble, error) {
	return newPebble(dir, maxParallelism, nil)
}

// newPebble is NewPebble with tune, when not nil, changing the options
// of the backend's databases.
func newPebble(dir string, maxParallelism int, tune func(*pebble.Options)) (*Pebble, error) {
	if maxParallelism < 1 || maxParallelism >= operatorGroup {
		return nil, fmt.Errorf("state: invalid max parallelism %d", maxParallelism)
	}
	// Readable by its owner only, whatever the umask, as everything in a
	// data directory.
	if err := errors.Join(os.RemoveAll(dir), os.MkdirAll(dir, 0o700)); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	p := &Pebble{tableSet: tableSet[storedTable]{tables: map[string]storedTable{}}, CacheEntries: DefaultCacheEntries,
		dir: dir, maxParallelism: maxParallelism, hashes: map[string]string{}, tune: tune, held: map[string]bool{}}
	db, dbDir, err := p.openNew()
	if err != nil {
		return nil, err
	}
	p.db, p.dbDir = db, dbDir
	return p, nil
}

// quiet is Pebble's logger: informational messages are dropped, errors
// also reach the callers.
type quiet struct{}

func (quiet) Infof(string, ...any)           {}
func (quiet) Errorf(string, ...any)          {}
func (quiet) Fatalf(format string, a ...any) { panic(fmt.Sprintf("pebble: "+format, a...)) }

// options are the options of the backend's databases.
func (p *Pebble) options(readOnly bool) *pebble.Options {
	o := &pebble.Options{DisableWAL: true, Logger: quiet{}, ReadOnly: readOnly}
	// A Bloom filter per SST (every level takes L0's): a Get of a key
	// that is not there, as for every new key, reads no block.
	o.Levels[0].FilterPolicy = bloom.FilterPolicy(10)
	if p.tune != nil {
		p.tune(o)
	}
	return o
}

// next returns a new path in dir named after kind.
func (p *Pebble) next(kind string) string {
	p.seq++
	return filepath.Join(p.dir, kind+"-"+strconv.Itoa(p.seq))
}

// openNew opens an empty database in a directory of its own.
func (p *Pebble) openNew() (*pebble.DB, string, error) {
	dir := p.next("db")
	db, err := pebble.Open(dir, p.options(false))
	if err != nil {
		return nil, "", fmt.Errorf("state: opening %s: %w", dir, err)
	}
	return db, dir, nil
}

func (p *Pebble) register(name string, t table) {
	if len(name) > 255 {
		panic(fmt.Sprintf("state: table name %q is too long", name))
	}
	st, ok := t.(storedTable)
	if !ok {
		panic(fmt.Sprintf("state: table %q cannot be kept in Pebble", name))
	}
	p.add(name, st)
	st.attach(p, appendBytes(nil, []byte(name)))
}

// fail records the first failure.
func (p *Pebble) fail(err error) {
	if p.err == nil && err != nil {
		p.err = fmt.Errorf("state: %w", err)
	}
}

// check records err, if any, as a failure.
func (p *Pebble) check(err error) { p.fail(err) }

// dbKey appends the database key of key in the table with prefix.
func (p *Pebble) dbKey(b, prefix []byte, operator bool, key string) []byte {
	g := operatorGroup
	if !operator {
		g = int(xxhash.Sum64String(key) % uint64(p.maxParallelism))
	}
	b = append(b, prefix...)
	b = binary.BigEndian.AppendUint16(b, uint16(g))
	return append(b, key...)
}

// groupBound returns the first database key of group g in the table with
// prefix.
func groupBound(prefix []byte, g int) []byte {
	return binary.BigEndian.AppendUint16(slices.Clip(prefix), uint16(g))
}

// succ returns the least key above every key starting with prefix.
func succ(prefix []byte) []byte {
	b := bytes.Clone(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0xFF {
			b[i]++
			return b[:i+1]
		}
	}
	return nil
}

// has reports whether the database holds a key.
func (p *Pebble) has(key []byte) bool {
	_, closer, err := p.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false
	}
	if err != nil {
		p.fail(err)
		return false
	}
	p.check(closer.Close())
	return true
}

// get reads a database key; the value is a copy.
func (p *Pebble) get(key []byte) ([]byte, bool) {
	v, closer, err := p.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false
	}
	if err != nil {
		p.fail(err)
		return nil, false
	}
	v = bytes.Clone(v)
	p.check(closer.Close())
	return v, true
}

// scan calls f with every entry whose key is in [lo, hi) until f returns
// false. The slices are valid during the call only.
func (p *Pebble) scan(lo, hi []byte, f func(k, v []byte) bool) {
	scanDB(p.db, lo, hi, p.fail, f)
}

// scanDB is scan over any database, reporting failures to fail.
func scanDB(db *pebble.DB, lo, hi []byte, fail func(error), f func(k, v []byte) bool) {
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		fail(err)
		return
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			fail(err)
			break
		}
		if !f(it.Key(), v) {
			break
		}
	}
	fail(it.Close())
}

// writeBack writes one table's decoded values and deletions to the
// database, keeping the values decoded.
func (p *Pebble) writeBack(t storedTable) error {
	b := p.db.NewBatch()
	defer b.Close()
	if err := t.writeBack(b); err != nil {
		p.fail(err)
		return p.err
	}
	p.check(b.Commit(pebble.NoSync))
	return p.err
}

// flush writes every table's decoded values and deletions to the
// database and forgets the values.
func (p *Pebble) flush() error {
	if p.err != nil {
		return p.err
	}
	b := p.db.NewBatch()
	defer b.Close()
	for _, t := range p.tables {
		if err := t.writeBack(b); err != nil {
			p.fail(err)
			return p.err
		}
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		p.fail(err)
		return p.err
	}
	for _, t := range p.tables {
		t.dropCache()
	}
	return nil
}

// Release implements Backend: past CacheEntries decoded values and
// deletions, they are written to the database.
func (p *Pebble) Release() error {
	if p.err != nil {
		return p.err
	}
	n := 0
	for _, t := range p.tables {
		n += t.cached()
	}
	if n > p.CacheEntries {
		return p.flush()
	}
	return nil
}

// Len implements Backend.
func (p *Pebble) Len() int {
	n := 0
	for _, t := range p.tables {
		n += t.len()
	}
	return n
}

// Close implements Backend: the database and its directory are removed,
// but for the files of incremental snapshots not released yet, which
// their release removes.
func (p *Pebble) Close() error {
	var err error
	if p.db != nil {
		err = p.db.Close()
		p.db = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if len(p.held) == 0 {
		return errors.Join(err, os.RemoveAll(p.dir))
	}
	entries, rerr := os.ReadDir(p.dir)
	err = errors.Join(err, rerr)
	for _, e := range entries {
		if path := filepath.Join(p.dir, e.Name()); !p.held[path] {
			err = errors.Join(err, os.RemoveAll(path))
		}
	}
	return err
}

// release removes the directory of an incremental snapshot, and the
// backend's once it is closed and nothing is held.
func (p *Pebble) release(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.held, dir)
	_ = os.RemoveAll(dir) // scratch: what a failure leaves, Close or the next start removes
	if p.closed && len(p.held) == 0 {
		_ = os.RemoveAll(p.dir)
	}
}

// checkMaxParallelism refuses a snapshot of another number of key groups
// than the database is laid out by.
func (p *Pebble) checkMaxParallelism(maxParallelism int) error {
	if maxParallelism != p.maxParallelism {
		return fmt.Errorf("state: snapshot with max parallelism %d of a backend laid out for %d", maxParallelism, p.maxParallelism)
	}
	return nil
}

// Snapshot implements Backend, in the memory backend's format: a full
// snapshot that either backend restores.
func (p *Pebble) Snapshot(maxParallelism int, owned KeyGroupRange) ([]byte, error) {
	if err := p.checkMaxParallelism(maxParallelism); err != nil {
		return nil, err
	}
	p.prepare()
	if err := p.flush(); err != nil {
		return nil, err
	}
	keyed, operator := p.split()
	b := appendSnapshotHeader([]byte{snapshotVersion}, maxParallelism, p.Tables(), func(name string) bool { return p.tables[name].operator() })
	for _, name := range operator {
		prefix := appendBytes(nil, []byte(name))
		var entries []byte
		n := 0
		p.scan(prefix, succ(prefix), func(k, v []byte) bool {
			entries = appendBytes(entries, k[len(prefix)+2:])
			entries = appendBytes(entries, v)
			n++
			return true
		})
		b = binary.AppendUvarint(b, uint64(n))
		b = append(b, entries...)
	}
	byTable := make([]grouped, len(keyed))
	for i, name := range keyed {
		prefix := appendBytes(nil, []byte(name))
		g := &rawGrouped{counts: make([]int, maxParallelism), blocks: make([][]byte, maxParallelism)}
		p.scan(prefix, succ(prefix), func(k, v []byte) bool {
			grp := int(binary.BigEndian.Uint16(k[len(prefix):]))
			if grp >= maxParallelism {
				p.fail(fmt.Errorf("table %q holds a key of key group %d of %d", name, grp, maxParallelism))
				return false
			}
			g.counts[grp]++
			g.blocks[grp] = appendBytes(g.blocks[grp], k[len(prefix)+2:])
			g.blocks[grp] = appendBytes(g.blocks[grp], v)
			return true
		})
		if bad := g.outside(owned); bad >= 0 {
			return nil, fmt.Errorf("state: table %q holds a key of key group %d, outside the instance's key groups %d-%d", name, bad, owned.Start, owned.End)
		}
		byTable[i] = g
	}
	if p.err != nil {
		return nil, p.err
	}
	return appendGroupBlocks(b, maxParallelism, byTable), nil
}

// rawGrouped is a keyed table's encoded entries by key group.
type rawGrouped struct {
	counts []int
	blocks [][]byte
}

func (g *rawGrouped) count(n int) int { return g.counts[n] }

func (g *rawGrouped) appendGroup(b []byte, n int) []byte {
	b = binary.AppendUvarint(b, uint64(g.counts[n]))
	return append(b, g.blocks[n]...)
}

func (g *rawGrouped) outside(owned KeyGroupRange) int {
	for n, c := range g.counts {
		if c > 0 && !owned.Contains(n) {
			return n
		}
	}
	return -1
}

// checkOwned refuses keyed entries outside owned: a table's keys are
// ordered by group, so its first and last keys' groups bound them.
func (p *Pebble) checkOwned(owned KeyGroupRange) error {
	keyed, _ := p.split()
	for _, name := range keyed {
		prefix := appendBytes(nil, []byte(name))
		for _, bound := range []KeyGroupRange{{0, owned.Start - 1}, {owned.End + 1, operatorGroup - 1}} {
			if bound.Start > bound.End || bound.Start >= operatorGroup {
				continue
			}
			p.scan(groupBound(prefix, bound.Start), groupBound(prefix, bound.End+1), func(k, _ []byte) bool {
				p.fail(fmt.Errorf("table %q holds a key of key group %d, outside the instance's key groups %d-%d",
					name, binary.BigEndian.Uint16(k[len(prefix):]), owned.Start, owned.End))
				return false
			})
		}
	}
	return p.err
}

// SnapshotIncremental implements Incremental: the database is flushed
// and checkpointed (hard links to its files) into a directory that
// release removes; its immutable files (SSTs) are shared files, named by
// the SHA-256 of their content, and the others (the manifest, options
// and markers, small) are held in the snapshot. Layout: incrementalVersion, then as Snapshot the max
// parallelism and tables, then the key groups owned (first, last), the
// held files (count, then each a length-prefixed name and content) and
// the shared files (count, then each a length-prefixed local name and
// shared name, and the size).
func (p *Pebble) SnapshotIncremental(maxParallelism int, owned KeyGroupRange) (data []byte, files []SharedFile, release func(), err error) {
	if err := p.checkMaxParallelism(maxParallelism); err != nil {
		return nil, nil, nil, err
	}
	owned.End = min(owned.End, maxParallelism-1)
	p.prepare()
	if err := p.flush(); err != nil {
		return nil, nil, nil, err
	}
	if err := p.checkOwned(owned); err != nil {
		return nil, nil, nil, err
	}
	if err := p.db.Flush(); err != nil {
		return nil, nil, nil, fmt.Errorf("state: %w", err)
	}
	dir := p.next("chk")
	p.mu.Lock()
	p.held[dir] = true
	p.mu.Unlock()
	release = func() { p.release(dir) }
	defer func() {
		if err != nil {
			release()
			release = nil
		}
	}()
	if err := p.db.Checkpoint(dir); err != nil {
		return nil, nil, nil, fmt.Errorf("state: checkpoint of the database: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("state: %w", err)
	}
	b := appendSnapshotHeader([]byte{incrementalVersion}, maxParallelism, p.Tables(), func(name string) bool { return p.tables[name].operator() })
	b = binary.AppendUvarint(b, uint64(owned.Start))
	b = binary.AppendUvarint(b, uint64(owned.End))
	var held []byte
	var nheld int
	var shared []SharedFile
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !immutable(e.Name()) {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("state: %w", err)
			}
			held = appendBytes(appendBytes(held, []byte(e.Name())), data)
			nheld++
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("state: %w", err)
		}
		name, ok := p.hashes[e.Name()]
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("state: %w", err)
			}
			sum := sha256.Sum256(data)
			name = hex.EncodeToString(sum[:])
			p.hashes[e.Name()] = name
		}
		shared = append(shared, SharedFile{Name: name, Path: path, Size: info.Size()})
	}
	b = binary.AppendUvarint(b, uint64(nheld))
	b = append(b, held...)
	b = binary.AppendUvarint(b, uint64(len(shared)))
	for _, f := range shared {
		b = appendBytes(b, []byte(filepath.Base(f.Path)))
		b = appendBytes(b, []byte(f.Name))
		b = binary.AppendUvarint(b, uint64(f.Size))
	}
	return b, shared, release, nil
}

// immutable reports whether a database file never changes once written:
// such files are shared between checkpoints.
func immutable(name string) bool {
	return strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".blob")
}

// incrementalSnapshot is a decoded incremental snapshot.
type incrementalSnapshot struct {
	maxParallelism int
	owned          KeyGroupRange
	held           map[string][]byte
	// shared maps local names to shared names and sizes.
	shared map[string]sharedRef
}

type sharedRef struct {
	name string
	size int64
}

// decodeIncremental reads what SnapshotIncremental wrote, checking its
// tables against the backend's.
func (p *Pebble) decodeIncremental(data []byte) (*incrementalSnapshot, error) {
	r := Reader{b: data}
	if v := r.byte(); r.err == nil && v != incrementalVersion {
		return nil, fmt.Errorf("unknown snapshot version %d", v)
	}
	maxP := r.Uvarint()
	if r.err == nil && (maxP < 1 || maxP >= operatorGroup) {
		return nil, fmt.Errorf("invalid max parallelism %d", maxP)
	}
	if err := p.checkTables(&r); err != nil {
		return nil, err
	}
	s := &incrementalSnapshot{maxParallelism: int(maxP), held: map[string][]byte{}, shared: map[string]sharedRef{}}
	first, last := r.Uvarint(), r.Uvarint()
	if r.err == nil && (first > last || last >= maxP) {
		return nil, errors.New("corrupt snapshot: bad key group range")
	}
	s.owned = KeyGroupRange{Start: int(first), End: int(last)}
	for n := r.Uvarint(); n > 0 && r.err == nil; n-- {
		name, content := string(r.Bytes()), r.Bytes()
		if r.err == nil && !localName(name) {
			return nil, fmt.Errorf("corrupt snapshot: file name %q", name)
		}
		s.held[name] = content
	}
	for n := r.Uvarint(); n > 0 && r.err == nil; n-- {
		local, name, size := string(r.Bytes()), string(r.Bytes()), r.Uvarint()
		if r.err == nil && (!localName(local) || !immutable(local) || size > math.MaxInt64) {
			return nil, fmt.Errorf("corrupt snapshot: file name %q", local)
		}
		s.shared[local] = sharedRef{name, int64(size)}
	}
	if r.err == nil && len(r.b) != 0 {
		return nil, errors.New("corrupt snapshot: trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("corrupt snapshot: %w", r.err)
	}
	return s, nil
}

// localName reports whether a file name names a file of a database
// directory, not a path elsewhere.
func localName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`)
}

// materialize writes the files of an incremental snapshot into a new
// directory, reading the shared ones from files and checking them
// against their names (their SHA-256).
func (p *Pebble) materialize(s *incrementalSnapshot, files FileSource) (string, error) {
	dir := p.next("restore")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	write := func(name string, data []byte) error {
		return os.WriteFile(filepath.Join(dir, name), data, 0o600)
	}
	for name, data := range s.held {
		if err := write(name, data); err != nil {
			return dir, err
		}
	}
	for local, ref := range s.shared {
		if files == nil {
			return dir, fmt.Errorf("shared file %s: no checkpoint storage to read it from", ref.name)
		}
		data, err := files(ref.name)
		if err != nil {
			return dir, fmt.Errorf("shared file %s: %w", ref.name, err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != ref.name || int64(len(data)) != ref.size {
			return dir, fmt.Errorf("shared file %s is corrupt: %d bytes with checksum %x", ref.name, len(data), sum)
		}
		if err := write(local, data); err != nil {
			return dir, err
		}
	}
	return dir, nil
}

// stagingWriter writes restored entries into a new database in batches.
type stagingWriter struct {
	db *pebble.DB
	b  *pebble.Batch
}

// stagingBatch is the size at which a staging batch is committed.
const stagingBatch = 4 << 20

func (w *stagingWriter) set(key, val []byte) error {
	if w.b == nil {
		w.b = w.db.NewBatch()
	}
	if err := w.b.Set(key, val, nil); err != nil {
		return err
	}
	if w.b.Len() >= stagingBatch {
		return w.commit()
	}
	return nil
}

func (w *stagingWriter) commit() error {
	if w.b == nil {
		return nil
	}
	err := w.b.Commit(pebble.NoSync)
	w.b.Close()
	w.b = nil
	return err
}

// Restore implements Backend. Snapshots in the key group format (the
// memory backend's, and Pebble's full ones) and incremental ones may be
// mixed. A single incremental snapshot whose key groups are all in
// groups becomes the database as it is (its files are reused by the
// next incremental snapshot); otherwise the entries of groups are copied
// into a new database from each snapshot.
func (p *Pebble) Restore(snapshots [][]byte, groups KeyGroupRange, files FileSource) error {
	if len(snapshots) == 1 && len(snapshots[0]) > 0 && snapshots[0][0] == incrementalVersion {
		s, err := p.decodeIncremental(snapshots[0])
		if err != nil {
			return fmt.Errorf("state: %w", err)
		}
		if s.maxParallelism == p.maxParallelism && groups.Contains(s.owned.Start) && groups.Contains(s.owned.End) {
			return p.adopt(s, files)
		}
	}
	db, dbDir, err := p.openNew()
	if err != nil {
		return err
	}
	w := &stagingWriter{db: db}
	stages := map[string]stager{}
	for name, t := range p.tables {
		stages[name] = t.storeStage(w)
	}
	err = p.decodeAll(snapshots, groups, stages, func(data []byte, seen map[int]bool) (int, error) {
		return p.copyIncremental(data, groups, seen, files, stages)
	})
	for _, s := range stages {
		if err == nil {
			err = s.install()
		}
	}
	err = errors.Join(err, w.commit())
	if err != nil {
		return errors.Join(err, db.Close(), os.RemoveAll(dbDir))
	}
	return p.install(db, dbDir, map[string]string{}, stages)
}

// install makes db the backend's database.
func (p *Pebble) install(db *pebble.DB, dbDir string, hashes map[string]string, stages map[string]stager) error {
	old, oldDir := p.db, p.dbDir
	p.db, p.dbDir, p.hashes, p.err = db, dbDir, hashes, nil
	for _, t := range p.tables {
		t.dropCache()
		t.recount()
	}
	// The tables' restore hooks run first, so that what they find wrong
	// fails the restore.
	for _, s := range stages {
		s.restored()
	}
	err := errors.Join(old.Close(), os.RemoveAll(oldDir), p.err)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return nil
}

// adopt makes an incremental snapshot's database the backend's.
func (p *Pebble) adopt(s *incrementalSnapshot, files FileSource) error {
	dir, err := p.materialize(s, files)
	if err == nil {
		var db *pebble.DB
		if db, err = pebble.Open(dir, p.options(false)); err == nil {
			hashes := map[string]string{}
			for local, ref := range s.shared {
				hashes[local] = ref.name
			}
			stages := map[string]stager{}
			for name, t := range p.tables {
				stages[name] = restoredHook{t}
			}
			return p.install(db, dir, hashes, stages)
		}
	}
	return errors.Join(fmt.Errorf("state: %w", err), os.RemoveAll(dir))
}

// restoredHook is a stager that only runs a table's restore hook.
type restoredHook struct{ t table }

func (restoredHook) add(_, _ []byte) error { return nil }
func (restoredHook) install() error        { return nil }
func (h restoredHook) restored()           { h.t.restored() }

// copyIncremental copies the entries of groups, and the operator tables'
// entries, from an incremental snapshot into the stages, and returns its
// max parallelism.
func (p *Pebble) copyIncremental(data []byte, groups KeyGroupRange, seen map[int]bool, files FileSource, stages map[string]stager) (int, error) {
	s, err := p.decodeIncremental(data)
	if err != nil {
		return 0, err
	}
	if err := p.checkMaxParallelism(s.maxParallelism); err != nil {
		return 0, err
	}
	lo, hi := max(groups.Start, s.owned.Start), min(groups.End, s.owned.End)
	for g := lo; g <= hi; g++ {
		if seen[g] {
			return 0, fmt.Errorf("key group %d is in two snapshots", g)
		}
		seen[g] = true
	}
	dir, err := p.materialize(s, files)
	defer os.RemoveAll(dir)
	if err != nil {
		return 0, err
	}
	db, err := pebble.Open(dir, p.options(true))
	if err != nil {
		return 0, fmt.Errorf("opening the snapshot's database: %w", err)
	}
	defer db.Close()
	var failed error
	fail := func(err error) {
		if failed == nil && err != nil {
			failed = err
		}
	}
	for name, t := range p.tables {
		prefix := appendBytes(nil, []byte(name))
		from, to := groupBound(prefix, operatorGroup), succ(prefix)
		if !t.operator() {
			if lo > hi {
				continue
			}
			from, to = groupBound(prefix, lo), groupBound(prefix, hi+1)
		}
		scanDB(db, from, to, fail, func(k, v []byte) bool {
			if err := stages[name].add(k[len(prefix)+2:], v); err != nil {
				fail(fmt.Errorf("table %q: %w", name, err))
				return false
			}
			return true
		})
	}
	return s.maxParallelism, failed
}
