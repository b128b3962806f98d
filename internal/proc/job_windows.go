package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Job is one hook's process tree on Windows: a Job Object created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and without breakaway, so every
// process the hook starts is in it, TerminateJobObject ends all of them at
// once, and when hookside dies (its handle to the job closes) the kernel
// kills the tree. A Job is safe for concurrent use; it runs one hook.
type Job struct {
	mu     sync.Mutex
	h      windows.Handle // the job object; 0 once closed
	port   windows.Handle // completion port receiving the job's messages
	empty  bool           // JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO was received
	leader uint32         // pid of the process Start put in the job
}

// ErrJobClosed is returned by the methods of a Job after Close.
var ErrJobClosed = errors.New("proc: job object closed")

// ErrNoConsole is returned by Interrupt when hookside has no console to
// share with the hook, so no console control event can reach it.
var ErrNoConsole = errors.New("proc: no console shared with the hook: CTRL_BREAK cannot be delivered")

// Messages a job posts to its completion port (winnt.h JOB_OBJECT_MSG_*);
// x/sys/windows does not define them.
const (
	jobMsgActiveProcessZero = 4
)

// jobLimitFlags are the limits of every hook's job: kill-on-close, and
// neither JOB_OBJECT_LIMIT_BREAKAWAY_OK nor SILENT_BREAKAWAY_OK, so a
// process in the job cannot start a child outside it
// (CREATE_BREAKAWAY_FROM_JOB fails with access denied).
const jobLimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE

// jobAssociateCompletionPort is JOBOBJECT_ASSOCIATE_COMPLETION_PORT.
type jobAssociateCompletionPort struct {
	CompletionKey  uintptr
	CompletionPort windows.Handle
}

// NewJob creates an unnamed Job Object that kills its processes when its
// last handle closes and refuses breakaway, with a completion port for its
// "no process left" notification. Errors wrap the Windows error.
func NewJob() (*Job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("proc: CreateJobObject: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = jobLimitFlags
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("proc: set job kill-on-close: %w", err)
	}
	port, err := windows.CreateIoCompletionPort(windows.InvalidHandle, 0, 0, 1)
	if err != nil {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("proc: CreateIoCompletionPort: %w", err)
	}
	assoc := jobAssociateCompletionPort{CompletionKey: uintptr(h), CompletionPort: port}
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectAssociateCompletionPortInformation,
		uintptr(unsafe.Pointer(&assoc)), uint32(unsafe.Sizeof(assoc))); err != nil {
		windows.CloseHandle(port)
		windows.CloseHandle(h)
		return nil, fmt.Errorf("proc: associate job completion port: %w", err)
	}
	return &Job{h: h, port: port}, nil
}

// Start starts cmd inside the job: created suspended (so not one
// instruction runs, and no child is created, outside the job), assigned,
// then resumed. It adds CREATE_SUSPENDED and CREATE_NEW_PROCESS_GROUP (the
// group CTRL_BREAK targets) to cmd.SysProcAttr.CreationFlags, and
// CREATE_NO_WINDOW when hookside has no console (else every console hook
// would open a window of its own). When assigning or resuming fails the
// process is terminated and reaped and the error returned; cmd is then
// not usable. Call Start once per Job.
func (j *Job) Start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	flags := uint32(windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP)
	if !HasConsole() {
		flags |= windows.CREATE_NO_WINDOW
	}
	cmd.SysProcAttr.CreationFlags |= flags
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return ErrJobClosed
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := uint32(cmd.Process.Pid)
	fail := func(err error) error {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return err
	}
	// cmd.Process holds a handle to the suspended child, so pid names it.
	ph, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|
		windows.PROCESS_SUSPEND_RESUME|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return fail(fmt.Errorf("proc: open hook process %d: %w", pid, err))
	}
	defer windows.CloseHandle(ph)
	if err := windows.AssignProcessToJobObject(j.h, ph); err != nil {
		return fail(fmt.Errorf("proc: assign process %d to its job: %w", pid, err))
	}
	if err := resumeProcess(ph, pid); err != nil {
		return fail(fmt.Errorf("proc: resume process %d: %w", pid, err))
	}
	j.leader = pid
	return nil
}

// Interrupt sends CTRL_BREAK_EVENT to the hook's process group: the
// Windows counterpart of SIGTERM, which a console program can handle. It
// returns ErrNoConsole when hookside has no console (the hook was started
// with CREATE_NO_WINDOW and cannot receive console events): the caller
// then goes straight to Terminate.
func (j *Job) Interrupt() error {
	j.mu.Lock()
	leader := j.leader
	j.mu.Unlock()
	if leader == 0 {
		return errors.New("proc: interrupt: no process started in this job")
	}
	if !HasConsole() {
		return ErrNoConsole
	}
	if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, leader); err != nil {
		return fmt.Errorf("proc: CTRL_BREAK to group %d: %w", leader, err)
	}
	return nil
}

// Terminate ends every process in the job with exit code code
// (TerminateJobObject). The processes are gone once Wait reports the job
// empty.
func (j *Job) Terminate(code uint32) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return ErrJobClosed
	}
	if err := windows.TerminateJobObject(j.h, code); err != nil {
		return fmt.Errorf("proc: TerminateJobObject: %w", err)
	}
	return nil
}

// jobProcessIDList is JOBOBJECT_BASIC_PROCESS_ID_LIST with room for n ids.
type jobProcessIDList struct {
	NumberOfAssignedProcesses uint32
	NumberOfProcessIdsInList  uint32
	ProcessIdList             [1]uintptr
}

// PIDs returns the ids of the processes currently in the job
// (QueryInformationJobObject JobObjectBasicProcessIdList).
func (j *Job) PIDs() ([]uint32, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return nil, ErrJobClosed
	}
	for n := 16; ; n *= 4 {
		buf := make([]uintptr, 1+n) // two uint32 counters, then n ids
		if err := windows.QueryInformationJobObject(j.h, windows.JobObjectBasicProcessIdList,
			uintptr(unsafe.Pointer(&buf[0])), uint32(len(buf))*uint32(unsafe.Sizeof(buf[0])), nil); err != nil &&
			!errors.Is(err, windows.ERROR_MORE_DATA) {
			return nil, fmt.Errorf("proc: job process list: %w", err)
		}
		l := (*jobProcessIDList)(unsafe.Pointer(&buf[0]))
		if l.NumberOfProcessIdsInList < l.NumberOfAssignedProcesses && int(l.NumberOfAssignedProcesses) > n {
			continue
		}
		ids := buf[1 : 1+int(l.NumberOfProcessIdsInList)]
		out := make([]uint32, len(ids))
		for i, id := range ids {
			out[i] = uint32(id)
		}
		return out, nil
	}
}

// Wait blocks until no process is left in the job (the job's
// JOB_OBJECT_MSG_ACTIVE_PROCESS_ZERO), at most timeout. It returns nil
// when the job is empty and os.ErrDeadlineExceeded-wrapped error when the
// time ran out first. Call it after the leader exited or after Terminate;
// a job no process was ever started in never reports empty.
func (j *Job) Wait(timeout time.Duration) error {
	j.mu.Lock()
	port, empty := j.port, j.empty
	j.mu.Unlock()
	if empty {
		return nil
	}
	if port == 0 {
		return ErrJobClosed
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		var msg uint32
		var key uintptr
		var ov *windows.Overlapped
		err := windows.GetQueuedCompletionStatus(port, &msg, &key, &ov, uint32(left.Milliseconds()))
		if err != nil {
			if errors.Is(err, windows.WAIT_TIMEOUT) {
				return fmt.Errorf("proc: job still has processes after %s: %w", timeout, errDeadline)
			}
			return fmt.Errorf("proc: job completion port: %w", err)
		}
		if msg == jobMsgActiveProcessZero {
			j.mu.Lock()
			j.empty = true
			j.mu.Unlock()
			return nil
		}
	}
}

// Close closes the job's handles. Processes still in the job are killed by
// the kernel (kill-on-close) unless another handle to the job is open.
func (j *Job) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.h == 0 {
		return nil
	}
	err := windows.CloseHandle(j.h)
	windows.CloseHandle(j.port)
	j.h, j.port = 0, 0
	return err
}

var (
	ntdll                = windows.NewLazySystemDLL("ntdll.dll")
	procNtResumeProcess  = ntdll.NewProc("NtResumeProcess")
	kernel32             = windows.NewLazySystemDLL("kernel32.dll")
	procGetConsoleWindow = kernel32.NewProc("GetConsoleWindow")
)

// resumeProcess resumes the suspended process h: NtResumeProcess when
// ntdll has it, else ResumeThread on each of its threads (a process
// created suspended has one, the main thread).
func resumeProcess(h windows.Handle, pid uint32) error {
	if procNtResumeProcess.Find() == nil {
		st, _, _ := procNtResumeProcess.Call(uintptr(h))
		if st == 0 {
			return nil
		}
	}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("thread snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	var te windows.ThreadEntry32
	te.Size = uint32(unsafe.Sizeof(te))
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("open thread %d: %w", te.ThreadID, err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("resume thread %d: %w", te.ThreadID, err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread found to resume")
	}
	return nil
}

// HasConsole reports whether hookside is attached to a console
// (GetConsoleWindow). Only then can a hook share it and receive
// CTRL_BREAK; without one, hooks are started with CREATE_NO_WINDOW.
func HasConsole() bool {
	if procGetConsoleWindow.Find() != nil {
		return false
	}
	w, _, _ := procGetConsoleWindow.Call()
	return w != 0
}
