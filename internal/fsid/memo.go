package fsid

import (
	"io/fs"
	"sync"
)

// Memo remembers the small files read through it while one thing opens (a
// session reads its settings files for plugins, hooks and switches), so
// that each file state is read once. Every reading is kept with the
// identity of the descriptor it was read from; it is handed out again only
// to a caller whose own identity of the path (its stat) is equal, so an
// edit made in between is read afresh, never served with the old bytes.
// After Done it reads every time and keeps nothing. A nil *Memo reads
// every time. Safe for concurrent use.
type Memo struct {
	mu    sync.Mutex
	done  bool
	files map[string]memoFile
	reads int
	hits  int
}

type memoFile struct {
	id   ID
	data []byte
}

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return &Memo{files: map[string]memoFile{}} }

// ReadFile is the package's ReadFile (Open, then a regular file of at most
// max bytes) through m: when path's identity now (Stat) equals that of an
// earlier reading, its bytes are returned without opening the file; a path
// that does not exist is reported (fs.ErrNotExist) without opening it. The
// returned bytes are shared: callers must not modify them.
func (m *Memo) ReadFile(path string, max int64) ([]byte, error) {
	if m == nil {
		return ReadFile(path, max)
	}
	id, err := Stat(path)
	if err != nil && IsNotExist(err) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
	if err == nil {
		if data, ok := m.Get(path, id); ok {
			return data, nil
		}
	}
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The identity the reading is kept under is the descriptor's, as Stat
	// takes it (on Windows an os.FileInfo has no file index).
	fid, idErr := OfFile(f)
	data, fi, err := readRegular(f, path, max)
	if err != nil {
		return nil, err
	}
	if idErr != nil {
		fid = Of(fi)
	}
	m.put(path, fid, data)
	return data, nil
}

// Get returns the bytes read through m from path when they were read from
// the file state id (the caller's own stat of path), else false.
func (m *Memo) Get(path string, id ID) ([]byte, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	f, ok := m.files[path]
	if !ok || m.done || f.id != id {
		return nil, false
	}
	m.hits++
	return f.data, true
}

// Put remembers data as path's content in the file state id (the
// identity of the descriptor data was read from), for a reader that does
// not read through ReadFile (a read inside an os.Root).
func (m *Memo) Put(path string, id ID, data []byte) {
	if m != nil {
		m.put(path, id, data)
	}
}

func (m *Memo) put(path string, id ID, data []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reads++
	if !m.done {
		m.files[path] = memoFile{id: id, data: data}
	}
}

// Reads is how many files were read (opened) through m.
func (m *Memo) Reads() int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reads
}

// Hits is how many readings m handed out again instead of a read.
func (m *Memo) Hits() int {
	if m == nil {
		return 0
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hits
}

// Done drops what m holds: from now on it reads every time.
func (m *Memo) Done() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done, m.files = true, nil
}
