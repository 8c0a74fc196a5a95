//go:build linux || darwin

package storage

import "syscall"

// freeBytes is the space an unprivileged writer may still use in dir's file
// system, or -1 when it cannot be told.
func freeBytes(dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize) //nolint:unconvert // Bsize differs in type by platform
}
