package jsonpos

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// indexStep is the spacing in bytes of an Index's checkpoints: a lookup
// reads at most about this many bytes.
const indexStep = 512

// Index answers LineCol for many offsets of one document at a cost that
// does not grow with the offset: a loader that names the line and column
// of every declaration of a file calls it once per declaration, and
// LineCol alone rescans the document from its start each time (a file of
// n declarations would cost n² byte reads, minutes for a 100,000-line
// file). NewIndex reads the document once and keeps a checkpoint (offset,
// line, column) about every 512 bytes, 24 bytes each; the data must not
// change while the Index is used.
type Index struct {
	data []byte
	cps  []checkpoint
}

// checkpoint is the line and column of the rune starting at off.
type checkpoint struct{ off, line, col int }

// NewIndex indexes data for Index.LineCol; O(len(data)).
func NewIndex(data []byte) *Index {
	x := &Index{data: data, cps: make([]checkpoint, 0, len(data)/indexStep+1)}
	line, col, next := 1, 1, 0
	for i := 0; i < len(data); {
		if i >= next {
			x.cps = append(x.cps, checkpoint{i, line, col})
			next = (i/indexStep + 1) * indexStep
		}
		if i == 0 && bytes.HasPrefix(data, bom) {
			i = len(bom) // not counted, as LineCol has it
			continue
		}
		c := data[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
		case c < utf8.RuneSelf:
			col++
			i++
		default:
			_, n := utf8.DecodeRune(data[i:])
			col++
			i += n
		}
	}
	if len(x.cps) == 0 {
		x.cps = append(x.cps, checkpoint{0, 1, 1})
	}
	return x
}

// LineCol is LineCol(data, off) for the indexed data: the same 1-based
// line and column (in runes), with the same clamping of offsets outside
// the data.
func (x *Index) LineCol(off int) (line, col int) {
	off = min(max(off, 0), len(x.data))
	i := min(off/indexStep, len(x.cps)-1)
	for x.cps[i].off > off {
		i--
	}
	cp := x.cps[i]
	seg := x.data[cp.off:off]
	nl := bytes.Count(seg, []byte{'\n'})
	if nl == 0 {
		if cp.off == 0 {
			seg, _ = SkipBOM(seg)
		}
		return cp.line, cp.col + utf8.RuneCount(seg)
	}
	last := bytes.LastIndexByte(seg, '\n')
	return cp.line + nl, 1 + utf8.RuneCount(seg[last+1:])
}

// At is "name:line:col" of offset off in the indexed data, as At.
func (x *Index) At(name string, off int) string {
	line, col := x.LineCol(off)
	return name + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
}
