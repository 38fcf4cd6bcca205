//go:build !linux

package main

import "syscall"

// exitWithParent is only implemented on Linux.
func exitWithParent() error { return nil }

// childProcAttr has no parent-death signal outside Linux.
func childProcAttr() *syscall.SysProcAttr { return nil }
