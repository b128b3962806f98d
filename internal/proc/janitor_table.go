//go:build unix

package proc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The janitor table is a file shared by hookside and its janitor (the
// janitor's file descriptor 3): hookside writes one fixed-size record per
// running hook with pwrite(2) and clears it when the hook's group is
// killed; the janitor reads the table only when its pipe from hookside
// closes. Recording a hook therefore wakes no process — a pipe message per
// hook would wake the janitor twice per hook.
//
// Layout: record 0 is the header (tableMagic, zero-padded); record i ≥ 1 is
// a slot: bytes 0–3 the process group id (uint32, little endian; 0 = free),
// byte 4 the token's length n, bytes 5 … 5+n the run token.
const (
	tableRecord   = 64
	tableTokenMax = tableRecord - 5
	tableMagic    = "hookside janitor table 1\n"
)

// errNoTable: the janitor's descriptor 3 is not a janitor table.
var errNoTable = errors.New("proc: janitor: descriptor 3 is not a janitor table")

// table is hookside's side of a janitor table: the slots in use and the
// free ones. Its methods are called with the Janitor's lock held.
type table struct {
	f    *os.File
	used map[int]int64 // pgid → slot
	free []int64
	next int64 // the slot after the highest ever used
}

// newTable makes an empty table in a file only this process and the
// janitor it starts can reach (tableFile: memfd on Linux, else an unlinked
// temporary file) and writes its header.
func newTable() (*table, error) {
	f, err := tableFile()
	if err != nil {
		return nil, fmt.Errorf("proc: janitor table: %w", err)
	}
	hdr := make([]byte, tableRecord)
	copy(hdr, tableMagic)
	if _, err := f.WriteAt(hdr, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("proc: janitor table: %w", err)
	}
	return &table{f: f, used: map[int]int64{}, next: 1}, nil
}

// track writes pgid's record (one pwrite). A pgid already recorded is
// rewritten in place.
func (t *table) track(pgid int, token string) error {
	slot, ok := t.used[pgid]
	if !ok {
		if n := len(t.free); n > 0 {
			slot, t.free = t.free[n-1], t.free[:n-1]
		} else {
			slot = t.next
			t.next++
		}
	}
	var rec [tableRecord]byte
	binary.LittleEndian.PutUint32(rec[0:4], uint32(pgid))
	rec[4] = byte(len(token))
	copy(rec[5:], token)
	if _, err := t.f.WriteAt(rec[:], slot*tableRecord); err != nil {
		if !ok {
			t.free = append(t.free, slot)
		}
		return err
	}
	t.used[pgid] = slot
	return nil
}

// untrack clears pgid's record (one pwrite of its group id); an unknown
// pgid is no error.
func (t *table) untrack(pgid int) error {
	slot, ok := t.used[pgid]
	if !ok {
		return nil
	}
	var zero [4]byte
	if _, err := t.f.WriteAt(zero[:], slot*tableRecord); err != nil {
		return err
	}
	delete(t.used, pgid)
	t.free = append(t.free, slot)
	return nil
}

// readTable returns the groups recorded in the table r (pgid → token).
// Records with a group id ≤ 1 or a token too long are skipped.
func readTable(r io.ReaderAt) (map[int]string, error) {
	b, err := io.ReadAll(io.NewSectionReader(r, 0, 1<<40))
	if err != nil {
		return nil, err
	}
	if len(b) < tableRecord || !bytes.HasPrefix(b, []byte(tableMagic)) {
		return nil, errNoTable
	}
	groups := map[int]string{}
	for off := tableRecord; off+5 <= len(b); off += tableRecord {
		rec := b[off:min(off+tableRecord, len(b))]
		pgid := int(binary.LittleEndian.Uint32(rec[0:4]))
		n := int(rec[4])
		if pgid <= 1 || n > tableTokenMax || 5+n > len(rec) {
			continue
		}
		groups[pgid] = string(rec[5 : 5+n])
	}
	return groups, nil
}
