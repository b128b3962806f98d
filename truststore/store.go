package truststore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/fsid"
)

// FileName is the trust file's name inside the security directory
// (§"信任存在哪、怎样审查"; hookside: <home>/security/workspace-hook-trust-v1.json).
const FileName = "workspace-hook-trust-v1.json"

// fileVersion is the only "version" the trust file may carry.
const fileVersion = 1

// DefaultLockTimeout is the spec's wait for the lock ("拿锁最多等 5 秒").
const DefaultLockTimeout = 5 * time.Second

// ErrCorrupt means the trust file could not be understood (§"信任存在哪、怎样
// 审查": "文件读不懂时改名为 .corrupt-<时间戳> 备查，所有工作区钩子按不可信处理").
// Load returns it (wrapped) with StatusCorrupt; Grant and Revoke refuse with
// it (workspace-hook-trust-cli.ts:158: recovery must not pass for a grant).
var ErrCorrupt = errors.New("the workspace hook trust file is corrupt")

// Options tune a Store. The zero value is the spec's behaviour.
type Options struct {
	// LockTimeout is how long Grant/Revoke wait for the lock (default 5 s).
	LockTimeout time.Duration
	// Now is the clock for grantedAt and .corrupt-<timestamp> (default time.Now).
	Now func() time.Time
	// ReadOnly makes Load report a corrupt file without moving it aside:
	// for a caller that only shows the state (`hooks trust status`), or
	// that checks its own arguments before it writes (`hooks trust grant`
	// and `revoke`: a refused command leaves the file where it is). A
	// write (Grant, Revoke; through a Gate too) still moves a corrupt file
	// aside and refuses.
	ReadOnly bool
	// Logger receives the warning logged each time a corrupt file is moved
	// aside (default slog.Default()).
	Logger *slog.Logger
}

// Store is the trust file <dir>/workspace-hook-trust-v1.json with its lock
// <dir>/workspace-hook-trust-v1.json.lock (§"信任存在哪、怎样审查"). The
// directory is kept 0700 and the file 0600 (on Windows: owned by the token
// user, with a protected DACL granting write to nobody but that user,
// LocalSystem and Administrators); writes are temp file + fsync + rename +
// directory fsync under the lock; readers never lock, since a rename is
// atomic. A Store is safe for concurrent use, and any number of
// Stores and processes may share one directory.
type Store struct {
	dir, path, lockPath string
	timeout             time.Duration
	now                 func() time.Time
	readOnly            bool
	log                 *slog.Logger

	mu    sync.Mutex
	stamp fsid.ID // identity of the file at the last Load (zero = absent)
	seen  bool    // Load ran at least once
}

// Open returns the store in dir (the caller's <home>/security). It does no
// I/O; the directory is created on the first write.
func Open(dir string, opts Options) *Store {
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	p := filepath.Join(dir, FileName)
	return &Store{dir: dir, path: p, lockPath: p + ".lock", timeout: opts.LockTimeout, now: opts.Now, readOnly: opts.ReadOnly, log: opts.Logger}
}

// Path returns the trust file's path.
func (s *Store) Path() string { return s.path }

// fileJSON is the trust file's shape (workspace-hook-trust-store-file.ts:37).
type fileJSON struct {
	Version int      `json:"version"`
	Records []Record `json:"records"`
}

// corruptError carries why the file was judged corrupt.
type corruptError struct{ why string }

// Error returns why the file is corrupt.
func (e *corruptError) Error() string { return e.why }

// Load reads the trust file. A missing file is StatusMissing with a nil
// error. A corrupt one (empty, truncated, not JSON, not UTF-8, larger
// than MaxFileBytes, wrong shape, wrong version, not a regular file — a
// symlink included —, not owned by us, or any permission bit beyond
// 0600; on Windows a DACL granting write to anyone else) is renamed to <file>.corrupt-<timestamp> under the lock,
// with one warning to the Logger, and reported as StatusCorrupt with a
// *CorruptError (wrapping ErrCorrupt). Mode bits are not repaired: a group-
// or world-accessible file may have been written by someone else, so it is
// not trusted (fail closed; ARCHITECTURE.md "Reliability rules"). Any other
// read error also yields StatusCorrupt (nothing runs) with that error, and
// nothing is renamed. A leading UTF-8 byte order mark is skipped (parse).
// A ReadOnly store renames nothing either: the corrupt file stays where it
// is until a write finds it. The State is never nil.
func (s *Store) Load() (*State, error) {
	st, id, err := s.read()
	var ce *corruptError
	switch {
	case err == nil:
		s.setStamp(id)
		return st, nil
	case errors.Is(err, fs.ErrNotExist):
		s.setStamp(fsid.ID{})
		return newState(StatusMissing, nil), nil
	case errors.As(err, &ce) && s.readOnly:
		s.setStamp(s.currentID())
		return newState(StatusCorrupt, nil), &CorruptError{Path: s.path, Why: ce.why, Kept: readOnlyKept}
	case errors.As(err, &ce):
		return newState(StatusCorrupt, nil), s.moveAside(ce.why)
	default:
		s.setStamp(s.currentID())
		return newState(StatusCorrupt, nil), fmt.Errorf("load %s: %w", s.path, err)
	}
}

// moveAside renames the corrupt trust file (corrupt for why) aside under
// the lock, as Load does on a store that is not ReadOnly, and returns the
// *CorruptError saying where it is now (or that it could not be moved, or
// had been replaced meanwhile); what Changed compares against becomes the
// file's state after the move.
func (s *Store) moveAside(why string) *CorruptError {
	dst, qerr := s.quarantineLocked()
	s.setStamp(s.currentID())
	return s.movedError(why, dst, qerr, false)
}

// Changed reports whether the trust file differs (device, inode, size,
// mtime, ctime, existence) from what the last Load saw: one lstat, for the
// runner's security version (workspace-hook-runtime-admission.ts:148).
// It is true before the first Load.
func (s *Store) Changed() bool {
	id := s.currentID()
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.seen || id != s.stamp
}

func (s *Store) setStamp(id fsid.ID) {
	s.mu.Lock()
	s.stamp, s.seen = id, true
	s.mu.Unlock()
}

func (s *Store) currentID() fsid.ID {
	// fsid.Lstat does not allocate (os.Lstat would, on every admission
	// check: BenchmarkAdmitUnchanged). An error (EINTR included) reads as
	// "changed", which only costs a reload.
	id, err := fsid.Lstat(s.path)
	if err != nil {
		return fsid.ID{}
	}
	return id
}

// read opens, checks and parses the trust file. Errors: fs.ErrNotExist,
// *corruptError, or an I/O error.
func (s *Store) read() (*State, fsid.ID, error) {
	if err := checkDir(s.dir); err != nil {
		return nil, fsid.ID{}, err
	}
	fi, err := os.Lstat(s.path)
	if err != nil {
		return nil, fsid.ID{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fsid.ID{}, &corruptError{notRegular(fi.Mode())}
	}
	var f *os.File
	err = retry(func() (err error) { f, err = fsid.OpenNoFollow(s.path); return err })
	if err != nil {
		if errors.Is(err, fsid.ErrSymlink) {
			return nil, fsid.ID{}, &corruptError{"a symlink or other reparse point, not a regular file"}
		}
		return nil, fsid.ID{}, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, fsid.ID{}, err
	}
	id, err := fsid.OfFile(f)
	if err != nil {
		return nil, fsid.ID{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, id, &corruptError{notRegular(fi.Mode())}
	}
	if err := checkFile(f, fi); err != nil {
		return nil, id, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, id, err
	}
	if len(data) > MaxFileBytes {
		return nil, id, &corruptError{tooLargeWhy(fi.Size())}
	}
	recs, err := parse(data)
	if err != nil {
		return nil, id, err
	}
	return newState(StatusOK, recs), id, nil
}

// quarantineLocked renames a still-corrupt trust file aside under the lock
// (re-checking first: another process may have replaced it meanwhile) and
// returns its new name ("" when it was fixed or gone meanwhile).
func (s *Store) quarantineLocked() (string, error) {
	release, err := acquire(s.lockPath, s.timeout)
	if err != nil {
		return "", err
	}
	defer release()
	var ce *corruptError
	if _, _, err := s.read(); !errors.As(err, &ce) {
		return "", nil // fixed or gone meanwhile
	}
	return s.quarantine(ce.why)
}

// quarantine renames the trust file to <file>.corrupt-<timestamp>, logs
// the warning and returns the new name. Caller holds the lock.
func (s *Store) quarantine(why string) (string, error) {
	dst := s.path + ".corrupt-" + s.now().UTC().Format(movedAsideLayout)
	if err := os.Rename(s.path, dst); err != nil {
		return "", err
	}
	s.movedAside(why, dst)
	if err := syncDir(s.dir); err != nil {
		return dst, fmt.Errorf("moved to %s, but fsync %s: %w", dst, s.dir, err)
	}
	return dst, nil
}

// Grant writes records trusting declarations of workspaceID (§"信任存在哪、
// 怎样审查"; review "trust_selected"). Each record's WorkspaceID is set to
// workspaceID and a zero GrantedAt (its own, or one of OtherSites') to now.
// A record of a digest the file already holds is merged into it: each pin
// set the new record carries (its own, at its Site, and OtherSites)
// replaces the set recorded at the same site, the sets of other sites are
// kept, the newest grant becomes the record's own pins (what a binary that
// knows no sites reads) and, beyond MaxSites, the oldest are dropped; the
// snapshot is the new record's. Other records are kept. Under the lock it
// re-reads the file: when that is corrupt it is moved aside and Grant
// fails with a *CorruptError, never starting a fresh file as if nothing
// happened. Errors also: a *TooLargeError (wrapping ErrTooLarge) when
// the file would be larger than MaxFileBytes, which Load refuses (nothing
// is written), ErrLockTimeout (wrapped, naming the holder), invalid input,
// I/O. On a nil error the grant is durable (file and directory fsynced).
func (s *Store) Grant(workspaceID string, recs []Record) error {
	if workspaceID == "" {
		return errors.New("cannot grant trust: no workspace is named (an empty workspace id); nothing was written")
	}
	now := s.now().UTC().Truncate(time.Second)
	recs = slices.Clone(recs)
	for i := range recs {
		r := &recs[i]
		if !validDigest(r.Digest) {
			return fmt.Errorf("cannot grant trust: %q is not a declaration digest (64 lowercase hex characters, as hookside hooks trust status lists them); nothing was written", r.Digest)
		}
		if r.GrantedAt.IsZero() {
			r.GrantedAt = now
		}
		r.OtherSites = slices.Clone(r.OtherSites)
		for j := range r.OtherSites {
			if r.OtherSites[j].GrantedAt.IsZero() {
				r.OtherSites[j].GrantedAt = now
			}
		}
		if err := validSites(r); err != nil {
			return fmt.Errorf("cannot grant trust to %s: its script pins are invalid (%v); nothing was written", r.Digest, err)
		}
	}
	return s.update(func(old []Record) ([]Record, bool) {
		idx := map[string]int{}
		for i, r := range old {
			if r.WorkspaceID == workspaceID {
				idx[r.Digest] = i
			}
		}
		for _, r := range recs {
			r.WorkspaceID = workspaceID
			if r.Snapshot.Args == nil {
				r.Snapshot.Args = []string{}
			}
			if i, ok := idx[r.Digest]; ok {
				r.setSites(mergeSites(old[i].Sites(), r.Sites()))
				old[i] = r
			} else {
				idx[r.Digest] = len(old)
				old = append(old, r)
			}
		}
		return old, len(recs) > 0
	})
}

// Revoke deletes workspaceID's records for digests (PROTOCOL.md §4
// workspaceHooks/revoke with persist=true) and returns the digests whose
// record it deleted, in the order asked, each once. Unknown digests are not
// in the result; a missing file stays missing. Errors as for Grant.
func (s *Store) Revoke(workspaceID string, digests []string) ([]string, error) {
	drop := make(map[string]bool, len(digests))
	for _, d := range digests {
		drop[d] = true
	}
	deleted := map[string]bool{}
	err := s.update(func(old []Record) ([]Record, bool) {
		clear(deleted)
		kept := old[:0]
		for _, r := range old {
			if r.WorkspaceID == workspaceID && drop[r.Digest] {
				deleted[r.Digest] = true
				continue
			}
			kept = append(kept, r)
		}
		return kept, len(deleted) > 0
	})
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, d := range digests {
		if deleted[d] {
			out = append(out, d)
			delete(deleted, d)
		}
	}
	return out, nil
}

// update is the locked read-modify-write shared by Grant and Revoke.
func (s *Store) update(fn func([]Record) ([]Record, bool)) error {
	if err := ensureDir(s.dir); err != nil {
		return err
	}
	release, err := acquire(s.lockPath, s.timeout)
	if err != nil {
		return err
	}
	defer release()
	st, _, err := s.read()
	var ce *corruptError
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		st = newState(StatusMissing, nil)
	case errors.As(err, &ce):
		dst, qerr := s.quarantine(ce.why)
		return s.movedError(ce.why, dst, qerr, true)
	default:
		return fmt.Errorf("cannot read the workspace hook trust file %s: %w; nothing was written", s.path, err)
	}
	recs, changed := fn(append([]Record(nil), st.Records...))
	if !changed {
		return nil
	}
	return s.write(newState(StatusOK, recs).Records)
}

// write replaces the file atomically: a temp file in the same directory
// (protected as the trust file: 0600, or the store's DACL on Windows) is
// written, fsynced and renamed over the target (natefinch/atomic's
// ReplaceFile; on Windows retried while a reader holds the target for a
// moment), then the directory is fsynced. Stale temp files of writers
// killed mid-write are removed (we hold the lock: no live writer).
// Contents larger than MaxFileBytes, which read would refuse, are not
// written: a *TooLargeError.
func (s *Store) write(recs []Record) error {
	data, err := json.MarshalIndent(fileJSON{Version: fileVersion, Records: recs}, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if len(data) > MaxFileBytes {
		return tooLarge(s.path, len(data), recs)
	}
	tmp, err := os.CreateTemp(s.dir, FileName)
	if err != nil {
		return writeError(s.path, err)
	}
	name := tmp.Name()
	err = protectFile(tmp)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = replaceFile(name, s.path)
	}
	if err != nil {
		_ = os.Remove(name)
		return writeError(s.path, err)
	}
	if err := syncDir(s.dir); err != nil {
		return fmt.Errorf("the workspace hook trust file %s was written, but its directory %s could not be flushed to disk (%w): a crash now could lose the change; run hookside hooks trust status to check it", s.path, s.dir, err)
	}
	s.removeStaleTemps()
	return nil
}

// writeError is a failed replacement of the trust file at path (the temp
// file was removed, the old file is intact): which file, the file
// system's error, and what to check.
func writeError(path string, err error) error {
	return fmt.Errorf("cannot write the workspace hook trust file %s: %w; nothing was written (check that its directory is yours, writable and not full)", path, err)
}

// removeStaleTemps deletes <FileName><digits> files left by killed writers
// (os.CreateTemp(dir, FileName) names).
func (s *Store) removeStaleTemps() {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), FileName)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		_ = os.Remove(filepath.Join(s.dir, e.Name()))
	}
}

// ensureDir creates the security directory and protects it on every
// write (0700 and our uid on Unix; owner and protected DACL on Windows). A
// directory owned by another user is refused with ErrCorrupt.
func ensureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot create %s, the directory of the workspace hook trust file: %w; nothing was written", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cannot read %s, the directory of the workspace hook trust file: %w; nothing was written", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("cannot write the workspace hook trust file: %s, where it is kept, is not a directory: move that file away and try again", dir)
	}
	return protectDir(dir, fi)
}

// checkDir is the read-side check of the security directory: a directory
// owned by another user, or one that others may write into (group or world
// write permission on Unix; a DACL granting write to anyone but us,
// LocalSystem and Administrators on Windows), could hold a trust file
// someone else put or swapped there, so the store reads as corrupt (fail
// closed). A missing directory is fs.ErrNotExist (nothing trusted yet).
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &corruptError{fmt.Sprintf("security directory %s is not a directory", dir)}
	}
	return checkDirOwner(dir, fi)
}

// Peek reads the trust file's status without side effects: a corrupt file
// is reported, not moved aside, and what Changed compares against stays
// as the last Load left it.
func (s *Store) Peek() Status {
	_, _, err := s.read()
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, fs.ErrNotExist):
		return StatusMissing
	}
	return StatusCorrupt
}
