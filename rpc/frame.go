package rpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookside/hookside/internal/jsonpos"
)

// Framing selects how JSON-RPC messages are delimited on the byte stream
// (PROTOCOL.md §1).
type Framing string

const (
	// FramingNDJSON is one JSON object per `\n`-terminated line (the default).
	FramingNDJSON Framing = "ndjson"
	// FramingContentLength is LSP-style `Content-Length: N\r\n\r\n<body>`.
	FramingContentLength Framing = "content-length"
)

// ParseFraming accepts exactly "ndjson" and "content-length" (app-server's
// --framing values, docs/protocol.md §1); anything else, the empty string
// among them, is an error naming the two.
func ParseFraming(s string) (Framing, error) {
	switch Framing(s) {
	case FramingNDJSON:
		return FramingNDJSON, nil
	case FramingContentLength:
		return FramingContentLength, nil
	}
	return "", fmt.Errorf("unknown framing %q (want ndjson or content-length)", s)
}

// MaxFrameBytes bounds one incoming frame (64 MiB). A larger frame is
// discarded and answered with -32600; the connection stays up.
const MaxFrameBytes = 64 << 20

// errFrameTooLarge is returned (non-fatally) for a frame over MaxFrameBytes.
var errFrameTooLarge = errors.New("frame exceeds the 64 MiB limit")

// errBadHeader is returned (non-fatally) for an unparsable Content-Length
// header block, wrapped with the cause: "malformed Content-Length header:
// Content-Length \"abc\" is not a decimal number of bytes; dropped up to
// the next Content-Length header".
var errBadHeader = errors.New("malformed Content-Length header")

// framer reads and writes whole frames. Framing never knows about methods.
type framer interface {
	// ReadFrame returns the next frame's bytes (valid until the next call).
	// errFrameTooLarge and errBadHeader are recoverable; io.EOF ends the stream.
	ReadFrame() ([]byte, error)
	// WriteFrame writes the held frames and b in one write; safe for
	// concurrent use.
	WriteFrame(b []byte) error
	// HoldFrame keeps b to go out with the next WriteFrame or Flush, after
	// the frames held before it.
	HoldFrame(b []byte)
	// Flush writes the held frames, if any.
	Flush() error
	// OnWriteError sets fn, called once by the first write that fails
	// (the host closed its end: EPIPE), with the framer's lock held: fn
	// must not write frames or block. Every later write returns that
	// error without writing.
	OnWriteError(fn func(error))
}

func newFramer(f Framing, r io.Reader, w io.Writer) framer {
	if f == FramingContentLength {
		return &lspFramer{r: bufio.NewReaderSize(r, 64<<10), frameWriter: frameWriter{w: w, headers: true}}
	}
	return &lineFramer{r: bufio.NewReaderSize(r, 64<<10), frameWriter: frameWriter{w: w}}
}

// frameWriter is the writing half of both framings. Every frame goes out
// whole in one Write, after the frames held before it, so frames of
// concurrent writers never interleave and stay in the order they were
// written or held.
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
	// headers selects Content-Length framing (else NDJSON).
	headers bool
	// out holds the held frames, framed; WriteFrame appends its frame and
	// writes out.
	out []byte
	// err is the error of the first write that failed; broken is told of
	// it (OnWriteError).
	err    error
	broken func(error)
}

// add appends b, framed, to out.
func (f *frameWriter) add(b []byte) {
	if f.headers {
		f.out = append(f.out, "Content-Length: "...)
		f.out = strconv.AppendInt(f.out, int64(len(b)), 10)
		f.out = append(f.out, "\r\n\r\n"...)
		f.out = append(f.out, b...)
		return
	}
	f.out = append(append(f.out, b...), '\n')
}

// send writes out and empties it (f.mu held). After a failed write
// nothing more is written: the stream may end inside a frame, and a write
// error on the transport (the host closed its end) does not heal.
func (f *frameWriter) send() error {
	if f.err != nil {
		f.out = f.out[:0]
		return f.err
	}
	_, err := f.w.Write(f.out)
	f.out = f.out[:0]
	if cap(f.out) > keepFrameBuf {
		f.out = nil
	}
	if err != nil {
		f.err = err
		if f.broken != nil {
			f.broken(err)
		}
	}
	return err
}

func (f *frameWriter) WriteFrame(b []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.add(b)
	return f.send()
}

func (f *frameWriter) HoldFrame(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.add(b)
}

func (f *frameWriter) OnWriteError(fn func(error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.broken = fn
}

func (f *frameWriter) Flush() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.out) == 0 {
		return nil
	}
	return f.send()
}

// keepFrameBuf is the largest read buffer (1 MiB) a framer keeps for the
// next frame. The buffer of a larger frame is the caller's alone, garbage
// once the caller is done with the frame, and that of a refused frame is
// dropped, so one large frame does not keep a long-lived server's memory
// up (see memoryReturn). frameWriter keeps its out buffer to the same
// size.
const keepFrameBuf = 1 << 20

// returnDelay is how long after the last large frame its memory is
// handed back to the OS.
const returnDelay = time.Second

// memoryReturn hands the memory of large frames back to the OS
// (debug.FreeOSMemory: a garbage collection, then all free memory
// released) once no large frame has come for returnDelay. Left to itself
// the Go runtime collects an idle server's garbage every 2 minutes and
// releases it only gradually after that. Its zero value is ready; large
// is called by the reading goroutine only.
type memoryReturn struct {
	t *time.Timer
}

// large notes a frame over keepFrameBuf, or a refused one.
func (m *memoryReturn) large() {
	if m.t == nil {
		m.t = time.AfterFunc(returnDelay, debug.FreeOSMemory)
		return
	}
	m.t.Reset(returnDelay)
}

// lineFramer implements NDJSON framing.
type lineFramer struct {
	r *bufio.Reader
	// buf holds a line of up to keepFrameBuf bytes and is kept for the
	// next line. A longer line goes on in blocks, each keepFrameBuf bytes
	// but the last, joined into one new buffer when the line ends, or
	// dropped as soon as it is known to be over MaxFrameBytes: a line never
	// holds more than MaxFrameBytes, plus its copy when it is a frame.
	buf    []byte
	blocks [][]byte
	// n is the length of the line in buf and blocks.
	n   int
	mem memoryReturn
	frameWriter
}

// add appends chunk to the line (f.n counts it already). Its fast path,
// the usual line in the buffer kept, is small enough to be inlined; it is
// never taken once blocks began (a non-empty chunk: buf is full then).
func (f *lineFramer) add(chunk []byte) {
	if len(f.buf)+len(chunk) <= cap(f.buf) {
		f.buf = append(f.buf, chunk...)
		return
	}
	f.addBlocks(chunk)
}

// addBlocks appends chunk to a line that outgrows buf's capacity: buf
// grows up to keepFrameBuf, the rest goes in blocks.
func (f *lineFramer) addBlocks(chunk []byte) {
	for len(chunk) > 0 {
		last := &f.buf
		if len(f.blocks) > 0 {
			last = &f.blocks[len(f.blocks)-1]
		}
		if len(*last) == keepFrameBuf {
			f.blocks = append(f.blocks, make([]byte, 0, keepFrameBuf))
			continue
		}
		k := min(len(chunk), keepFrameBuf-len(*last))
		if n := len(*last) + k; n > cap(*last) {
			// Only buf grows (a block is made whole): doubling, up
			// to keepFrameBuf.
			grown := make([]byte, len(*last), min(max(2*cap(*last), n, 4<<10), keepFrameBuf))
			copy(grown, *last)
			*last = grown
		}
		*last = append(*last, chunk[:k]...)
		chunk = chunk[k:]
	}
}

// line returns the line read, trimmed, and starts the next one.
func (f *lineFramer) line() []byte {
	b := f.buf
	if len(f.blocks) > 0 {
		f.mem.large()
		b = make([]byte, 0, f.n)
		b = append(b, f.buf...)
		for _, blk := range f.blocks {
			b = append(b, blk...)
		}
	}
	f.reset()
	return skipBOM(bytes.TrimSpace(b)) // a line of a mark only is blank
}

// skipBOM is frame without a UTF-8 byte order mark in front, and the white
// space after one (RFC 8259 §8.1: a parser may ignore a mark; .NET's
// StreamWriter with Encoding.UTF8 writes one before a stream's first
// bytes, or before each message). Both framers skip it: in front of an
// NDJSON line, in front of a Content-Length body and before a header line
// (headerLine).
func skipBOM(frame []byte) []byte {
	if body, base := jsonpos.SkipBOM(frame); base > 0 {
		return bytes.TrimSpace(body)
	}
	return frame
}

// reset empties the line, dropping its blocks.
func (f *lineFramer) reset() {
	f.buf, f.blocks, f.n = f.buf[:0], nil, 0
}

// ReadFrame reads the next non-blank line. A line over MaxFrameBytes is
// errFrameTooLarge: its bytes are read and dropped from the moment it is
// known to be too large.
func (f *lineFramer) ReadFrame() ([]byte, error) {
	for {
		tooLarge := false
		for {
			chunk, err := f.r.ReadSlice('\n')
			if !tooLarge {
				if f.n += len(chunk); f.n > MaxFrameBytes {
					tooLarge = true
					f.reset()
				} else {
					f.add(chunk)
				}
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				if line := f.line(); err == io.EOF && len(line) > 0 && !tooLarge {
					// A last line without "\n" still counts.
					return line, nil
				}
				if err == io.EOF && tooLarge {
					// So does a last line too large: it is answered,
					// and the next read sees the end.
					f.mem.large()
					return nil, errFrameTooLarge
				}
				return nil, err
			}
			break
		}
		if tooLarge {
			f.mem.large()
			return nil, errFrameTooLarge
		}
		if line := f.line(); len(line) > 0 {
			return line, nil
		}
		// blank lines between frames are allowed
	}
}

// lspFramer implements Content-Length framing.
type lspFramer struct {
	r *bufio.Reader
	// buf holds the body being read, kept for the next frame while its
	// capacity is at most keepFrameBuf.
	buf []byte
	mem memoryReturn
	frameWriter
	// skip is how many bytes of a refused frame's body are still to be
	// discarded; headerRest says the rest of its header block (up to the
	// blank line) comes first. An oversized frame is answered at its
	// Content-Length header, and its bytes are read afterwards.
	skip       int64
	headerRest bool
	// resync is set after a header block whose body length is unknown: the
	// stream is scanned for the next "Content-Length:" (a body without a
	// trailing newline shares its line with the next header).
	resync bool
	// pending is a header line split off the bytes glued before it, read
	// before the next line of the stream.
	pending string
}

// gluedHeader splits the first line of a header block where
// "Content-Length:" follows other text with no ':' before it: that text is
// the tail of a body longer than its Content-Length said (or other bytes
// that are no frame), glued to the next frame's header because it ended
// without a newline. It returns the line from "Content-Length:" on and
// whether there was such text; leading white space alone is not. A line
// whose header name comes first (a value mentioning content-length) is not
// glued.
func gluedHeader(line string) (string, bool) {
	i := indexContentLength(line)
	if i <= 0 || strings.TrimSpace(line[:i]) == "" {
		return line, false
	}
	if isHeaderLine(line[:i]) {
		return line, false
	}
	return line[i:], true
}

// indexContentLength returns the byte offset of the first
// "Content-Length:" in line, in any ASCII case, or -1. Other bytes,
// invalid UTF-8 included, are compared as they are.
func indexContentLength(line string) int {
	const name = "content-length:"
	for i := 0; i+len(name) <= len(line); i++ {
		j := 0
		for ; j < len(name); j++ {
			c := line[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != name[j] {
				break
			}
		}
		if j == len(name) {
			return i
		}
	}
	return -1
}

// isHeaderLine reports whether line starts with a header field name and
// its ':'.
func isHeaderLine(line string) bool {
	name, _, ok := strings.Cut(line, ":")
	return ok && isToken(strings.TrimSpace(name))
}

// isToken reports whether s is an RFC 9110 token (a header field name).
func isToken(s string) bool {
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return s != ""
}

// startOfBlock checks the first line of a header block. Bytes glued
// before a "Content-Length:" are answered (errBadHeader) and the header is
// read next; a JSON line (a peer speaking NDJSON) is answered on its own;
// any other line that is no header line is answered once and the stream is
// resynchronised at the next "Content-Length:".
func (f *lspFramer) startOfBlock(line string, tooLong bool) error {
	var rest string
	var glued bool
	if tooLong {
		// Only the line's tail was kept: any header in it was glued.
		i := indexContentLength(line)
		rest, glued = line[max(i, 0):], i >= 0
	} else {
		rest, glued = gluedHeader(line)
	}
	switch {
	case glued:
		f.pending = rest
		return fmt.Errorf("%w: the bytes before a Content-Length header were dropped (the rest of a body longer than its Content-Length?)", errBadHeader)
	case tooLong:
		f.resync = true
		return fmt.Errorf("%w: a line over 64 KiB where a header block should start; dropped up to the next Content-Length header", errBadHeader)
	case strings.HasPrefix(strings.TrimSpace(line), "{"):
		// Each such line is answered at once.
		return fmt.Errorf("%w: a JSON line without Content-Length headers (this connection uses --framing content-length)", errBadHeader)
	}
	if !isHeaderLine(line) {
		f.resync = true
		return fmt.Errorf("%w: a line that is no header line where a header block should start; dropped up to the next Content-Length header", errBadHeader)
	}
	return nil
}

// maxHeaderLine bounds one header line (the reader's buffer size).
const maxHeaderLine = 64 << 10

// headerLine reads one header line without its line ending. A line over
// maxHeaderLine is read to its end and reported too long, with its last
// maxHeaderLine bytes (where a glued "Content-Length:" would be).
func (f *lspFramer) headerLine() (line string, tooLong bool, err error) {
	var b []byte
	for {
		chunk, err := f.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxHeaderLine {
			tooLong = true
			b = append(b[:0], b[len(b)-maxHeaderLine:]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return string(b), tooLong, err
		}
		// A byte order mark in front of a header line is skipped, as one
		// in front of a body is (skipBOM).
		return strings.TrimPrefix(strings.TrimRight(string(b), "\r\n"), "\uFEFF"), tooLong, nil
	}
}

// ReadFrame reads one frame. A header block it cannot parse is
// errBadHeader: when its Content-Length was readable the body is skipped,
// otherwise the stream is resynchronised at the next "Content-Length:". A
// block whose first line is no header line (the rest of a body longer than
// its Content-Length, or other stray bytes) is errBadHeader at once, and
// those bytes are dropped up to the next "Content-Length:", so the next
// frame is served however the bytes arrive. A Content-Length over
// MaxFrameBytes is errFrameTooLarge at once, before the rest of its header
// block and its body, which the next call discards.
func (f *lspFramer) ReadFrame() ([]byte, error) {
	for f.headerRest {
		line, _, err := f.headerLine()
		if err != nil {
			return nil, err
		}
		f.headerRest = line != ""
	}
	if f.skip > 0 {
		n, err := io.CopyN(io.Discard, f.r, f.skip)
		f.skip -= n
		if err != nil {
			return nil, err
		}
	}
	length := -1
	sawHeader, bad, lengthBad := false, false, false
	why := "" // the first fault of the block, for the -32700 message
	fault := func(w string) {
		bad = true
		if why == "" {
			why = w
		}
	}
	for {
		line, tooLong := f.pending, false
		if line != "" {
			f.pending = ""
		} else {
			var err error
			line, tooLong, err = f.headerLine()
			if err != nil {
				if err == io.EOF && (sawHeader || strings.TrimSpace(line) != "") {
					return nil, io.ErrUnexpectedEOF
				}
				return nil, err
			}
		}
		if f.resync {
			i := indexContentLength(line)
			if i < 0 {
				continue
			}
			line, tooLong, f.resync = line[i:], false, false
		}
		if line == "" && !tooLong {
			if !sawHeader {
				continue // stray blank line between frames
			}
			break
		}
		if !sawHeader {
			if err := f.startOfBlock(line, tooLong); err != nil {
				return nil, err
			}
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		switch {
		case tooLong:
			fault(fmt.Sprintf("a header line over %d KiB", maxHeaderLine>>10))
			continue
		case !ok:
			fault(fmt.Sprintf("header line %s has no ':'", quoteHead(line)))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v := strings.TrimSpace(value)
			n, err := strconv.ParseInt(v, 10, 64)
			switch {
			case errors.Is(err, strconv.ErrRange):
				lengthBad = true
				fault(fmt.Sprintf("Content-Length %s is out of range", quoteHead(v)))
				continue
			case err != nil:
				lengthBad = true
				fault(fmt.Sprintf("Content-Length %s is not a decimal number of bytes", quoteHead(v)))
				continue
			case n < 0:
				lengthBad = true
				fault(fmt.Sprintf("Content-Length %d is negative", n))
				continue
			case length >= 0 && n != int64(length):
				lengthBad = true
				fault(fmt.Sprintf("two Content-Length headers disagree (%d and %d)", length, n))
				continue
			}
			if n > MaxFrameBytes {
				// Answered now; the rest of the header block and the body
				// are discarded by the next call.
				f.skip, f.headerRest = n, true
				return nil, fmt.Errorf("%w: Content-Length %d announced; the body is read and discarded", errFrameTooLarge, n)
			}
			length = int(n)
		}
	}
	if bad || length < 0 {
		if why == "" {
			why = "no Content-Length header in the header block"
		}
		if length >= 0 && !lengthBad {
			f.skip = int64(length)
			unit := "bytes"
			if length == 1 {
				unit = "byte"
			}
			why += fmt.Sprintf("; its body (%d %s) was skipped", length, unit)
		} else {
			f.resync = true
			why += "; dropped up to the next Content-Length header"
		}
		return nil, fmt.Errorf("%w: %s", errBadHeader, why)
	}
	if cap(f.buf) < length {
		f.buf = make([]byte, length)
	}
	f.buf = f.buf[:length]
	b := f.buf
	if cap(f.buf) > keepFrameBuf {
		f.buf = nil // b is the caller's
		f.mem.large()
	}
	if _, err := io.ReadFull(f.r, b); err != nil {
		return nil, err
	}
	return skipBOM(b), nil
}

// quoteHeadChars caps the header text quoted in a malformed-header message.
const quoteHeadChars = 40

// quoteHead quotes the first quoteHeadChars bytes of s as a Go string
// ("…" appended when s is longer), for a -32700 message that names a bad
// header line or value.
func quoteHead(s string) string {
	if len(s) <= quoteHeadChars {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.ToValidUTF8(s[:quoteHeadChars], "")) + "…"
}
