package proc

import (
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/hookside/hookside/internal/randid"
)

// pipeSeq numbers the named pipes of this process.
var pipeSeq atomic.Uint64

// pipeBuffer is the in-kernel buffer of each direction, in bytes.
const pipeBuffer = 64 << 10

// Pipe returns one stdio pipe for a hook on Windows. The parent's end (the
// read end when parentReads, else the write end) is the server end of a
// named pipe opened with FILE_FLAG_OVERLAPPED, wrapped with os.NewFile, so
// it uses the runtime's I/O completion port and SetReadDeadline /
// SetWriteDeadline interrupt its reads and writes (anonymous pipes support
// neither). The child's end is a synchronous client handle, what a child
// expects of its stdio; exec.Cmd makes an inheritable duplicate of it.
// The pipe has a random name, admits one instance, refuses remote clients
// and is connected before Pipe returns. Errors wrap the Windows error.
func Pipe(parentReads bool) (r, w *os.File, err error) {
	name := fmt.Sprintf(`\\.\pipe\hookside-%d-%d-%s`, os.Getpid(), pipeSeq.Add(1), randid.New("")[:16])
	name16, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, nil, err
	}
	access := uint32(windows.PIPE_ACCESS_OUTBOUND)
	childAccess := uint32(windows.GENERIC_READ | windows.FILE_WRITE_ATTRIBUTES)
	if parentReads {
		access = windows.PIPE_ACCESS_INBOUND
		childAccess = windows.GENERIC_WRITE | windows.FILE_READ_ATTRIBUTES
	}
	server, err := windows.CreateNamedPipe(name16,
		access|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, pipeBuffer, pipeBuffer, 0, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("proc: CreateNamedPipe: %w", err)
	}
	client, err := windows.CreateFile(name16, childAccess, 0, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		windows.CloseHandle(server)
		return nil, nil, fmt.Errorf("proc: open client end of %s: %w", name, err)
	}
	sf := os.NewFile(uintptr(server), name)
	cf := os.NewFile(uintptr(client), name)
	if parentReads {
		return sf, cf, nil
	}
	return cf, sf, nil
}

var procPeekNamedPipe = kernel32.NewProc("PeekNamedPipe")

// Buffered returns how many bytes are waiting to be read in the pipe f
// (PeekNamedPipe); a read of at most that many does not block.
func Buffered(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var avail uint32
	var callErr error
	if err := rc.Control(func(fd uintptr) {
		r, _, e := procPeekNamedPipe.Call(fd, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
		if r == 0 {
			callErr = fmt.Errorf("proc: PeekNamedPipe: %w", e)
		}
	}); err != nil {
		return 0, err
	}
	return int(avail), callErr
}
