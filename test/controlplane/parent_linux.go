package main

import (
	"os"
	"syscall"
)

// exitWithParent asks the kernel to send SIGTERM when the parent process dies, so
// the control plane stops and cleans up even when its launcher is killed.
func exitWithParent() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0); errno != 0 {
		return errno
	}
	if os.Getppid() == 1 { // the parent died before prctl
		return syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}
	return nil
}

// childProcAttr makes the kernel SIGKILL a child process (KWOK) if this
// process dies without stopping it.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
