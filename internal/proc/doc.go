// Package proc holds the operating-system mechanisms under hookside's hook
// spawner that differ per platform, each behind build tags with a portable
// core the Linux test suite runs:
//
//   - Windows: a Job Object per hook (Job: suspended start, assign, resume;
//     kill-on-close; TerminateJobObject of the tree; the job's process list
//     and its "no process left" notification) and overlapped named pipes
//     for the parent's ends of a hook's stdio (Pipe), so read and write
//     deadlines work.
//   - Unix without Pdeathsig (macOS): the Janitor, one small process per
//     hookside that kills the recorded hook process groups when hookside's
//     pipe to it closes, for whatever reason hookside ended.
//   - Unix without a subreaper (macOS): Sweep, which finds the processes
//     carrying a per-run environment token (TokenVar) in the process list
//     and kills them: the hook's escapees (setsid, double fork).
//   - ProcStartTime: a process's start time (Linux /proc, macOS and FreeBSD
//     sysctl kern.proc.pid, Windows GetProcessTimes), which with the pid
//     names one process across pid reuse.
//   - macOS and FreeBSD: AwaitExit observes a child's exit with kqueue
//     EVFILT_PROC/NOTE_EXIT without reaping it, so its pid (its process
//     group's id) cannot be reused before the group kill. FreeBSD:
//     AcquireReaper makes hookside the reaper of its descendants (procctl
//     PROC_REAP_ACQUIRE).
package proc
